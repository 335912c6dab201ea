/** 通知规则 calls: the list, add, edit and removal; the channels once more for the pickers and the list. */
import { api } from '../../../lib/http/api';
import { postMutation, postQuery } from '../../../lib/http/endpoints';

export const ruleApi = api.injectEndpoints({
  endpoints: (build) => ({
    inquireRules: postQuery(build, '/monitor/rule/inquire', { providesTags: ['NotifyRule'] }),
    createRule: postMutation(build, '/monitor/rule/creation', { invalidatesTags: ['NotifyRule'] }),
    editRule: postMutation(build, '/monitor/rule/edit', { invalidatesTags: ['NotifyRule'] }),
    removeRule: postMutation(build, '/monitor/rule/removal', { invalidatesTags: ['NotifyRule'] }),
    ruleChannels: postQuery(build, '/monitor/channel/inquire', { providesTags: ['NotifyChannel'] }),
  }),
});

export const { useInquireRulesQuery, useCreateRuleMutation, useEditRuleMutation, useRemoveRuleMutation, useRuleChannelsQuery } = ruleApi;
