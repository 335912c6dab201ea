/**
 * Location calls: the whole building -> floor -> room tree in one answer (a hotel has hundreds of
 * rows). A change reloads the tree and the device list too: devices show their location's path.
 */
import { api } from '../../../lib/http/api';
import { getQuery, postMutation } from '../../../lib/http/endpoints';

export const locationApi = api.injectEndpoints({
  endpoints: (build) => ({
    locationTree: getQuery(build, 'GET /hotel/location/tree', { providesTags: ['Location'] }),
    createLocation: postMutation(build, '/hotel/location/creation', { invalidatesTags: ['Location'] }),
    editLocation: postMutation(build, '/hotel/location/edit', { invalidatesTags: ['Location', 'Device'] }),
    createRooms: postMutation(build, '/hotel/location/rooms/creation', { invalidatesTags: ['Location'] }),
    removeLocation: postMutation(build, '/hotel/location/removal', { invalidatesTags: ['Location'] }),
  }),
});

export const { useLocationTreeQuery, useCreateLocationMutation, useEditLocationMutation, useCreateRoomsMutation, useRemoveLocationMutation } = locationApi;
