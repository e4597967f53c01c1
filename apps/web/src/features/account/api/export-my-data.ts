import { privacy } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { apiClient, describedOr } from '@/lib/api-client';

const FILE_NAME = /^robot-portal-data-\d{4}-\d{2}-\d{2}\.json$/;

/** ExportMyData: everything the portal holds about the user, as the file to save. */
export async function exportMyData(): Promise<{ filename: string; json: string }> {
  try {
    const { filename, data } = await apiClient.call(privacy, 'ExportMyData', {});
    // The server names the file after the day of the export; a name of any other shape is not used.
    const name = FILE_NAME.test(filename)
      ? filename
      : `robot-portal-data-${new Date().toISOString().slice(0, 10)}.json`;
    return { filename: name, json: `${JSON.stringify(data, null, 2)}\n` };
  } catch (err) {
    throw describedOr(err, 'Failed to export your data. Please try again.');
  }
}

export function useExportMyDataMutation() {
  return useMutation({ mutationFn: exportMyData });
}
