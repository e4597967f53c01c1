import { ClientError } from '@portal/client';
import { type Artifact, type Asset, assets as assetsService } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { apiClient, failedAs } from '@/lib/api-client';

export const DOWNLOAD_LINK_FAILED = 'Failed to get download link';
export const NO_DOWNLOAD_LINK = 'Failed to fetch download link';
export const INVALID_DOWNLOAD = 'Invalid asset for download';

export interface DownloadRequest {
  asset: Asset;
  artifact: Artifact | undefined;
  /** the version of the license agreement the user ticked */
  agreementVersion: string;
}

/** GetDownload: a signed, expiring link for the chosen artifact, once the agreement is accepted. */
export async function fetchDownloadLink({ asset, artifact, agreementVersion }: DownloadRequest): Promise<string> {
  if (!artifact) throw new ClientError({ kind: 'not_found', status: 0, description: INVALID_DOWNLOAD });
  let link: string | undefined;
  try {
    const res = await apiClient.call(assetsService, 'GetDownload', {
      asset_id: asset.id,
      assets: { ...asset, artifacts: [artifact] },
      type: asset.type,
      download_link: '',
      agreement_version: agreementVersion,
      accepted: true,
    });
    link = res.download_link;
  } catch (err) {
    throw failedAs(err, DOWNLOAD_LINK_FAILED);
  }
  if (!link) throw new ClientError({ kind: 'invalid_response', status: 200, description: NO_DOWNLOAD_LINK });
  return link;
}

/**
 * The toast of a download that did not start (spec/001 §8 Download): "Invalid asset for download"
 * when there is no such artifact (none chosen, or the server's catalogue no longer holds it), and
 * "Failed to fetch download link" for every other failure: storage down (503), no answer, a refusal,
 * an answer without a link.
 */
export function downloadFailureToast(err: unknown): string {
  return err instanceof ClientError && err.kind === 'not_found' ? INVALID_DOWNLOAD : NO_DOWNLOAD_LINK;
}

export function useDownloadLink() {
  return useMutation({ mutationFn: fetchDownloadLink });
}
