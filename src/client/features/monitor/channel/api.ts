/** Notification channel calls: the list, add and edit, and 测试发送 (which also adds a 通知记录). */
import { api } from '../../../lib/http/api';
import { postMutation, postQuery } from '../../../lib/http/endpoints';

export const channelApi = api.injectEndpoints({
  endpoints: (build) => ({
    inquireChannels: postQuery(build, '/monitor/channel/inquire', { providesTags: ['NotifyChannel'] }),
    createChannel: postMutation(build, '/monitor/channel/creation', { invalidatesTags: ['NotifyChannel'] }),
    editChannel: postMutation(build, '/monitor/channel/edit', { invalidatesTags: ['NotifyChannel'] }),
    // A test changes the channel's health and adds a message of kind test.
    testChannel: postMutation(build, '/monitor/channel/test', { invalidatesTags: ['NotifyChannel', 'NotifyMessage'] }),
  }),
});

export const { useInquireChannelsQuery, useCreateChannelMutation, useEditChannelMutation, useTestChannelMutation } = channelApi;
