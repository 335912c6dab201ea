/** 通知规则 calls: the list, add, edit and removal (its pickers read through components/, picker-sources.ts). */
import { api } from '../../../lib/http/api';
import { postMutation, postQuery } from '../../../lib/http/endpoints';

export const ruleApi = api.injectEndpoints({
  endpoints: (build) => ({
    inquireRules: postQuery(build, '/monitor/rule/inquire', { providesTags: ['NotifyRule'] }),
    createRule: postMutation(build, '/monitor/rule/creation', { invalidatesTags: ['NotifyRule'] }),
    editRule: postMutation(build, '/monitor/rule/edit', { invalidatesTags: ['NotifyRule'] }),
    removeRule: postMutation(build, '/monitor/rule/removal', { invalidatesTags: ['NotifyRule'] }),
  }),
});

export const { useInquireRulesQuery, useCreateRuleMutation, useEditRuleMutation, useRemoveRuleMutation } = ruleApi;
