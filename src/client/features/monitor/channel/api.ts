/** Notification channel calls: the list, add and edit, 测试发送 (which also adds a 通知记录), and the message templates. */
import { api } from '../../../lib/http/api';
import { postMutation, postQuery } from '../../../lib/http/endpoints';

export const channelApi = api.injectEndpoints({
  endpoints: (build) => ({
    inquireChannels: postQuery(build, '/monitor/channel/inquire', { providesTags: ['NotifyChannel'] }),
    createChannel: postMutation(build, '/monitor/channel/creation', { invalidatesTags: ['NotifyChannel'] }),
    editChannel: postMutation(build, '/monitor/channel/edit', { invalidatesTags: ['NotifyChannel'] }),
    // A test changes the channel's health and adds a message of kind test.
    testChannel: postMutation(build, '/monitor/channel/test', { invalidatesTags: ['NotifyChannel', 'NotifyMessage'] }),
    inquireTemplates: postQuery(build, '/monitor/template/inquire', { providesTags: ['NotifyTemplate'] }),
    editTemplate: postMutation(build, '/monitor/template/edit', { invalidatesTags: ['NotifyTemplate'] }),
    resetTemplate: postMutation(build, '/monitor/template/reset', { invalidatesTags: ['NotifyTemplate'] }),
    previewTemplate: postMutation(build, '/monitor/template/preview'),
  }),
});

export const {
  useInquireChannelsQuery,
  useCreateChannelMutation,
  useEditChannelMutation,
  useTestChannelMutation,
  useInquireTemplatesQuery,
  useEditTemplateMutation,
  useResetTemplateMutation,
  usePreviewTemplateMutation,
} = channelApi;
