import type { z } from 'zod';

/**
 * Who may call a route, as the OpenAPI document lists it: `user` takes a user token or an API key;
 * the worker kinds take an environment key or a work item's sessions token, beside or instead of those.
 */
export type RouteAuth =
  'public' | 'user' | 'environment-key' | 'user-or-environment-key' | 'work-item' | 'user-or-sessions-token';

/** One HTTP operation of the gateway, written down once: the OpenAPI document is generated from these. */
export interface RouteEntry {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path template: `/v1/agents/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  /** 200 unless given. */
  status?: 200 | 202 | 204;
  /** The JSON body, parsed with this schema. */
  body?: z.ZodType;
  /** The query string, parsed with this schema. */
  query?: z.ZodType;
  /** Plain query parameters, read as strings. */
  queryNames?: string[];
  /** Request headers the route reads, besides credentials. */
  headers?: string[];
  /** The success body. */
  reply?: z.ZodType;
  /** The reply is a bare array of `reply` (the `/api` lists). */
  replyList?: boolean;
  /** `user` unless given. */
  auth?: RouteAuth;
}
