import { type Artifact, type Asset, assets as assetsService } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { ApiCallError, callAction, withMessage } from '@/lib/api-client';

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
  if (!artifact) throw new ApiCallError(INVALID_DOWNLOAD, undefined, 0);
  let link: string | undefined;
  try {
    const res = await callAction(assetsService, 'GetDownload', {
      asset_id: asset.id,
      assets: { ...asset, artifacts: [artifact] },
      type: asset.type,
      download_link: '',
      agreement_version: agreementVersion,
      accepted: true,
    });
    link = res.download_link;
  } catch (err) {
    throw withMessage(err, DOWNLOAD_LINK_FAILED);
  }
  if (!link) throw new ApiCallError(NO_DOWNLOAD_LINK, undefined, 200);
  return link;
}

export function useDownloadLink() {
  return useMutation({ mutationFn: fetchDownloadLink });
}
