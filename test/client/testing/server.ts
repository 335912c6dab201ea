/** The msw server standing in for the API at the network edge. */
import { setupServer } from 'msw/node';

import { sessionHandlers } from './handlers';

export const server = setupServer(...sessionHandlers);
