import { TableIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { DATA_USAGE_ROWS } from './privacy-data-usage';

export function PrivacyDataUsageDialog() {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="outline">
          <TableIcon aria-hidden />
          Data Usage Table
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-4xl sm:max-w-4xl">
        <DialogHeader>
          <DialogTitle>Data Usage Table</DialogTitle>
          <DialogDescription>
            What we use your personal data for, which data that is, and on what legal basis.
          </DialogDescription>
        </DialogHeader>
        {/* Three text columns do not fit a phone, so there each row becomes a small card. */}
        <ul className="grid gap-3 md:hidden">
          {DATA_USAGE_ROWS.map((row) => (
            <li key={row.purpose} className="rounded-lg border p-3 text-sm">
              <h3 className="mb-2 font-semibold">{row.purpose}</h3>
              <dl className="grid gap-2">
                <div>
                  <dt className="text-xs font-medium text-muted-foreground uppercase">Type of data</dt>
                  <dd>{row.data}</dd>
                </div>
                <div>
                  <dt className="text-xs font-medium text-muted-foreground uppercase">Legal basis and retention</dt>
                  <dd>{row.basis}</dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
        <div className="hidden md:block">
          <table className="w-full border-collapse text-left text-sm">
            <caption className="sr-only">Data Usage Table</caption>
            <thead>
              <tr className="border-b">
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Purpose
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Type of data
                </th>
                <th scope="col" className="py-2 font-semibold">
                  Legal basis and retention
                </th>
              </tr>
            </thead>
            <tbody>
              {DATA_USAGE_ROWS.map((row) => (
                <tr key={row.purpose} className="border-b align-top last:border-b-0">
                  <th scope="row" className="py-3 pr-4 font-medium">
                    {row.purpose}
                  </th>
                  <td className="py-3 pr-4 text-muted-foreground">{row.data}</td>
                  <td className="py-3 text-muted-foreground">{row.basis}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </DialogContent>
    </Dialog>
  );
}
