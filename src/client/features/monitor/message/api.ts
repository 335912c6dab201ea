/** 通知记录 calls: the list, and 重发 of dead letters (the 渠道 filter reads components/channel-choices). */
import { api } from '../../../lib/http/api';
import { postMutation, postQuery } from '../../../lib/http/endpoints';

export const messageApi = api.injectEndpoints({
  endpoints: (build) => ({
    inquireMessages: postQuery(build, '/monitor/message/inquire', { providesTags: ['NotifyMessage'] }),
    resendMessages: postMutation(build, '/monitor/message/resend', { invalidatesTags: ['NotifyMessage', 'NotifyChannel'] }),
  }),
});

export const { useInquireMessagesQuery, useResendMessagesMutation } = messageApi;
