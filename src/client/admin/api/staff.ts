import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type {
  EnrolmentDto,
  StaffAcceptInput,
  StaffInvitationPreview,
  StaffInviteInput,
  StaffList,
  StaffMe,
} from '@/shared/schemas/staff.ts';
import type { StaffRole } from '@/shared/staff-roles.ts';

/** The staff's own API (decision 064): who they are and may do, the second factor, invitations, the staff screen. */
type Message = { message: string };

export const staffMeKey = ['staff', 'me'] as const;
export const useStaffMe = (enabled: boolean) =>
  useQuery({
    queryKey: staffMeKey,
    queryFn: () => apiFetch<StaffMe>('/api/staff/me'),
    enabled,
    retry: false,
    staleTime: 60_000,
  });

export const useEnrolment = () =>
  useQuery({
    queryKey: ['staff', 'enrolment'],
    queryFn: () => apiFetch<EnrolmentDto>('/api/staff/second-factor/enrolment'),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

export const useConfirmEnrolment = () =>
  useMutation({
    mutationFn: (code: string) =>
      apiFetch<Message & { recoveryCodes: string[] }>('/api/staff/second-factor/enrolment', {
        method: 'POST',
        body: { code },
      }),
  });

export function useVerifySecondFactor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      apiFetch<Message & { recoveryCodesLeft: number | null }>('/api/staff/second-factor/verify', {
        method: 'POST',
        body: { code },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: staffMeKey }),
  });
}

export const useStaffInvitation = (token: string) =>
  useQuery({
    queryKey: ['staff', 'invitation', token],
    queryFn: () => apiFetch<StaffInvitationPreview>(`/api/staff/invitations/${encodeURIComponent(token)}`),
    retry: false,
  });

export const useAcceptStaffInvitation = (token: string) =>
  useMutation({
    mutationFn: (body: StaffAcceptInput) =>
      apiFetch<Message>(`/api/staff/invitations/${encodeURIComponent(token)}/accept`, {
        method: 'POST',
        body,
      }),
  });

export const useStaffList = () =>
  useQuery({ queryKey: ['admin', 'staff'], queryFn: () => apiFetch<StaffList>('/api/admin/staff') });

function useStaffAction<T>(run: (input: T) => Promise<Message>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin', 'staff'] }),
  });
}

export const useInviteStaff = () =>
  useStaffAction((body: StaffInviteInput) =>
    apiFetch<Message>('/api/admin/staff/invitations', { method: 'POST', body }),
  );
export const useRevokeStaffInvitation = () =>
  useStaffAction((id: number) =>
    apiFetch<Message>(`/api/admin/staff/invitations/${id}`, { method: 'DELETE' }),
  );
export const useChangeStaffRole = () =>
  useStaffAction(({ id, role }: { id: number; role: StaffRole }) =>
    apiFetch<Message>(`/api/admin/staff/${id}/role`, { method: 'PUT', body: { role } }),
  );
export const useStaffActive = () =>
  useStaffAction(({ id, active }: { id: number; active: boolean }) =>
    apiFetch<Message>(`/api/admin/staff/${id}/${active ? 'reactivate' : 'deactivate'}`, { method: 'POST' }),
  );
export const useResetSecondFactor = () =>
  useStaffAction((id: number) =>
    apiFetch<Message>(`/api/admin/staff/${id}/second-factor/reset`, { method: 'POST' }),
  );
