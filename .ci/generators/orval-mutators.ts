// The request functions orval's clients call (`override.mutator` in orval.config.cjs): the
// documented place to give them the service's base URL and the bearer token.
import axios, { type AxiosRequestConfig } from 'axios';
import { BASE_URL, TOKEN } from './shared.js';

/** For the fetch client: the answer as orval types it, `{ data, status, headers }`. */
export async function fetchRequest<T>(url: string, init: RequestInit): Promise<T> {
  const response = await fetch(`${BASE_URL}${url}`, { ...init, headers: { ...init.headers, Authorization: `Bearer ${TOKEN}` } });
  const text = await response.text();
  const data: unknown = text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
  return { data, status: response.status, headers: response.headers } as T;
}

/** For the axios client of the CSV forms: the answer's body; a 4xx or 5xx is thrown by axios. */
export async function axiosRequest<T>(config: AxiosRequestConfig): Promise<T> {
  const response = await axios.request<T>({ ...config, baseURL: BASE_URL, headers: { ...config.headers, Authorization: `Bearer ${TOKEN}` } });
  return response.data;
}
