import { useraction } from '@portal/contract';
import { apiClient, describedOr } from '@/lib/api-client';

export async function requestPasswordReset(email: string) {
  try {
    return await apiClient.call(useraction, 'UserForgotPassword', { user: { email } });
  } catch (err) {
    throw describedOr(err, 'Failed to reset password');
  }
}
