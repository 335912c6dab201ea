/** 通知记录 calls: the list, and 重发 of dead letters; the channels once more for the 渠道 filter. */
import { api } from '../../../lib/http/api';
import { postMutation, postQuery } from '../../../lib/http/endpoints';

export const messageApi = api.injectEndpoints({
  endpoints: (build) => ({
    inquireMessages: postQuery(build, '/monitor/message/inquire', { providesTags: ['NotifyMessage'] }),
    resendMessages: postMutation(build, '/monitor/message/resend', { invalidatesTags: ['NotifyMessage', 'NotifyChannel'] }),
    messageChannels: postQuery(build, '/monitor/channel/inquire', { providesTags: ['NotifyChannel'] }),
  }),
});

export const { useInquireMessagesQuery, useResendMessagesMutation, useMessageChannelsQuery } = messageApi;
