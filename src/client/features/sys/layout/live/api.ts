/**
 * The live console's calls: the stream's ticket, and the open alarms behind the header's badge
 * (the alarm list's own endpoint, asked for its newest open alarms and their total).
 */
import { api } from '../../../../lib/http/api';
import { postMutation, postQuery } from '../../../../lib/http/endpoints';

export const liveApi = api.injectEndpoints({
  endpoints: (build) => ({
    eventTicket: postMutation(build, '/events/ticket'),
    openAlarms: postQuery(build, '/hotel/alarm/inquire', { providesTags: ['Alarm'] }),
  }),
});

export const { useEventTicketMutation, useOpenAlarmsQuery } = liveApi;
