import type { Role } from '@shared/contracts/auth';

/** Who sees the Admin console (decisions §1); the server checks again on every /api/admin call. */
export const isAdminRole = (role: Role | undefined) => role === 'admin' || role === 'superadmin';
