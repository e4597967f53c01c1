import { DownloadIcon, Loader2Icon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ERROR_TOAST_MS } from '@/config/constants';
import { toast } from '@/lib/toast';
import { useExportMyDataMutation } from '../api/export-my-data';

/** Saves `json` as a file named `filename` through a temporary link (the browser's own download). */
export function saveJsonFile(filename: string, json: string): void {
  const url = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the blob to the download; the address is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** "Your data": the privacy policy's right of access, as a JSON file (issue 35, docs/decisions/074). */
export function AccountDataExportCard({ save = saveJsonFile }: { save?: (filename: string, json: string) => void }) {
  const mutation = useExportMyDataMutation();

  async function onDownload() {
    try {
      const { filename, json } = await mutation.mutateAsync();
      save(filename, json);
      toast.success('Your data is downloading', { description: `Saved as ${filename}.` });
    } catch (err) {
      const description =
        err instanceof Error && err.message ? err.message : 'An unexpected error occurred. Please try again.';
      toast.error('Failed to export your data', { description, duration: ERROR_TOAST_MS });
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Your data</CardTitle>
        <CardDescription>
          Download a copy of what the portal holds about you: your account, licences, robots, subscriptions, dial time,
          payments, support requests and security events, as one JSON file.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button
          variant="outline"
          onClick={() => void onDownload()}
          disabled={mutation.isPending}
          aria-busy={mutation.isPending || undefined}
        >
          {mutation.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : <DownloadIcon aria-hidden />}
          Download my data
        </Button>
      </CardContent>
    </Card>
  );
}
