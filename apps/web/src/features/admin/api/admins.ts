import { useQuery } from '@tanstack/react-query';
import type { AdminsResponse, CreateAdminRequest, CreateAdminResponse } from '@cellport/shared/schemas/admin/admins';
import { ADMIN_KEY, adminDelete, adminGet, adminPost } from './admin-client';

export const useAdmins = () => useQuery({ queryKey: [ADMIN_KEY, 'admins'], queryFn: () => adminGet<AdminsResponse>('/admins') });
export const createAdmin = (body: CreateAdminRequest) => adminPost<CreateAdminResponse>('/admins', body);
export const removeAdmin = (id: string) => adminDelete(`/admins/${id}`);
