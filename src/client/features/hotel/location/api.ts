/**
 * Location changes. The tree itself is read through components/location-tree (the device,
 * rule and maintenance screens read it too, the last two at their own paths). A change reloads
 * every reading, and an edit the device list too: devices show their location's path.
 */
import { api } from '../../../lib/http/api';
import { postMutation } from '../../../lib/http/endpoints';

export const locationApi = api.injectEndpoints({
  endpoints: (build) => ({
    createLocation: postMutation(build, '/hotel/location/creation', { invalidatesTags: ['Location'] }),
    editLocation: postMutation(build, '/hotel/location/edit', { invalidatesTags: ['Location', 'Device'] }),
    createRooms: postMutation(build, '/hotel/location/rooms/creation', { invalidatesTags: ['Location'] }),
    removeLocation: postMutation(build, '/hotel/location/removal', { invalidatesTags: ['Location'] }),
  }),
});

export const { useCreateLocationMutation, useEditLocationMutation, useCreateRoomsMutation, useRemoveLocationMutation } = locationApi;
