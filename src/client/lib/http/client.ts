/** The axios instance every call goes through (base /api, credentials, 300000 ms: docs/client.md, HTTP). */
import axios from 'axios';

export const REQUEST_TIMEOUT_MS = 300_000;

export const httpClient = axios.create({
  baseURL: '/api',
  withCredentials: true,
  timeout: REQUEST_TIMEOUT_MS,
  headers: { 'Content-Type': 'application/json' },
});
