import { LoginBodySchema } from '../../auth/login.controller.js';
import { ChangePasswordRequestSchema } from '@agentry/contracts';
import type { RouteEntry } from '../route-entry.js';

export const API_AUTH_ROUTES: RouteEntry[] = [
  {
    method: 'post',
    path: '/api/auth/login',
    operationId: 'login_login',
    summary: 'Sign in (user token)',
    body: LoginBodySchema,
    auth: 'public',
  },
  {
    method: 'post',
    path: '/api/auth/logout',
    operationId: 'logout_logout',
    summary: 'Sign out (revoke this token)',
  },
  {
    method: 'post',
    path: '/api/auth/password',
    operationId: 'password_change',
    summary: 'Change your password',
    body: ChangePasswordRequestSchema,
  },
];
