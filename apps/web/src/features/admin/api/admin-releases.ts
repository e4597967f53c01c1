import { ClientError, CSRF_HEADER } from '@portal/client';
import {
  type ArtifactArch,
  type ArtifactOS,
  admin,
  adminReleases,
  errorObjectInput,
  RELEASE_UPLOAD_PATH,
  type ReleasePlatform,
  type ReleaseView,
} from '@portal/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { readSession } from '@/lib/session';

export const RELEASES_KEY = ['adminReleases', 'ListReleases'] as const;

export async function fetchReleases(): Promise<ReleasePlatform[]> {
  return (await apiClient.call(adminReleases, 'ListReleases', {})).platforms;
}

export function releasesQueryOptions() {
  return queryOptions({ queryKey: RELEASES_KEY, queryFn: fetchReleases, staleTime: 10_000 });
}

export function useReleases() {
  return useQuery(releasesQueryOptions());
}

/** WithdrawRelease or RestoreRelease, with the reason kept in the audit entry. */
export function useSetWithdrawnMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { artifactId: string; withdraw: boolean; reason: string }) =>
      apiClient.call(adminReleases, input.withdraw ? 'WithdrawRelease' : 'RestoreRelease', {
        artifact_id: input.artifactId,
        reason: input.reason,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: RELEASES_KEY }),
  });
}

export interface UploadInput {
  file: File;
  os: ArtifactOS;
  arch: ArtifactArch;
  version: string;
}

/** The upload's name in errors, as the server's refusals name it. */
const UPLOAD_CALL = 'UploadRelease';

/**
 * Uploads a build: the file itself is the body (the browser streams it from disk), the rest in the
 * query (docs/operations.md, "Releases and the overview"). The upload is a route of its own, not an
 * action the client knows, so this sends it: a staff call first lets the client renew the session
 * when it must (the access token then read is fresh), with a CSRF token fetched beside it. A refusal
 * becomes the client's one error (`fields` name the query field, or `body` for the size limit).
 */
export async function uploadRelease(input: UploadInput): Promise<ReleaseView> {
  const [, csrf] = await Promise.all([apiClient.call(admin, 'Me', {}), apiClient.csrf()]);
  const query = new URLSearchParams({
    os: input.os,
    arch: input.arch,
    version: input.version,
    file_name: input.file.name,
  });
  let res: Response;
  try {
    res = await fetch(`${RELEASE_UPLOAD_PATH}?${query}`, {
      method: 'POST',
      credentials: 'same-origin',
      redirect: 'error',
      headers: {
        'content-type': 'application/octet-stream',
        [CSRF_HEADER]: csrf,
        authorization: `Bearer ${readSession().accessToken ?? ''}`,
      },
      body: input.file,
    });
  } catch {
    // A server refusing a body past its limit may close the connection before the browser has sent it all.
    throw new ClientError({
      kind: 'network',
      status: 0,
      description:
        'body: the upload was cut off before the server answered. The file may be larger than the server allows (RELEASE_MAX_BYTES), or the connection dropped.',
      call: UPLOAD_CALL,
    });
  }
  const json = (await res.json().catch(() => undefined)) as { release?: ReleaseView; error?: unknown } | undefined;
  const error = errorObjectInput.safeParse(json?.error);
  if (res.ok && json?.release && (!error.success || error.data.Success !== false)) return json.release;
  throw ClientError.fromAnswer(res.status, error.success ? error.data : undefined, UPLOAD_CALL);
}

export function useUploadReleaseMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadRelease,
    onSettled: () => queryClient.invalidateQueries({ queryKey: RELEASES_KEY }),
  });
}
