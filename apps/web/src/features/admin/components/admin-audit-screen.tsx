import type { AuditEntryView } from '@portal/contract';
import { DownloadIcon, Loader2Icon } from 'lucide-react';
import * as React from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { ERROR_TOAST_MS } from '@/config/constants';
import { defined } from '@/lib/search-params';
import { serverFieldError } from '@/lib/server-field-error';
import { toast } from '@/lib/toast';
import type { AuditSearch } from '../admin-search';
import { formatChangeValue, formatInstant } from '../admin-text';
import { downloadText, exportAudit, useAuditTrail } from '../api/admin-audit';
import { AdminLoadError, AdminLoadingRows } from './admin-load-error';
import { AdminTableRegion } from './admin-table-region';

/** The request fields each filter is sent as, to put a server refusal under the right field. */
const FILTER_FIELDS: Record<keyof AuditSearch, string> = {
  actor: 'actor',
  customer: 'customer',
  action: 'audit_action',
  from: 'from',
  to: 'to',
};

const FILTER_LABELS: Record<keyof AuditSearch, string> = {
  actor: 'Actor',
  customer: 'Customer',
  action: 'Action',
  from: 'From (day, UTC)',
  to: 'To (day, UTC)',
};

const FILTER_HINTS: Partial<Record<keyof AuditSearch, string>> = {
  actor: 'A staff email, a key name, stripe or system.',
  customer: 'Email or user id.',
  action: 'e.g. api_key.create, or staff. for all staff actions.',
};

function Filters({
  search,
  errors,
  onSearchChange,
}: {
  search: AuditSearch;
  errors: Partial<Record<keyof AuditSearch, string>>;
  onSearchChange: (search: AuditSearch) => void;
}) {
  const [draft, setDraft] = React.useState<AuditSearch>(search);
  // The address is the truth: a link, back or forward puts its filters in the form.
  React.useEffect(() => setDraft(search), [search]);

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSearchChange(
      defined({
        actor: draft.actor?.trim() || undefined,
        customer: draft.customer?.trim() || undefined,
        action: draft.action?.trim() || undefined,
        from: draft.from || undefined,
        to: draft.to || undefined,
      }),
    );
  }

  return (
    <form
      noValidate
      onSubmit={submit}
      aria-label="Filter the audit trail"
      className="grid gap-4 rounded-md border p-4 sm:grid-cols-2 lg:grid-cols-5"
    >
      {(Object.keys(FILTER_LABELS) as (keyof AuditSearch)[]).map((key) => {
        const id = `audit-filter-${key}`;
        const error = errors[key];
        const hint = FILTER_HINTS[key];
        return (
          <FormField key={key} id={id} label={FILTER_LABELS[key]} error={error} hint={hint} className="content-start">
            <Input
              id={id}
              type={key === 'from' || key === 'to' ? 'date' : 'text'}
              autoComplete="off"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
              value={draft[key] ?? ''}
              onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.value }))}
            />
          </FormField>
        );
      })}
      <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-5">
        <Button type="submit">Apply filters</Button>
        <Button type="button" variant="outline" onClick={() => onSearchChange({})}>
          Clear
        </Button>
      </div>
    </form>
  );
}

function Changes({ entry }: { entry: AuditEntryView }) {
  const fields = Object.keys(entry.changes);
  if (entry.anonymised) return <span className="text-muted-foreground">Anonymised</span>;
  if (!fields.length) return <span className="text-muted-foreground">—</span>;
  return (
    <ul className="grid gap-0.5">
      {fields.map((field) => {
        const change = entry.changes[field];
        return (
          <li key={field} className="break-words">
            <span className="font-medium">{field}</span>: {formatChangeValue(change?.before)}
            <span aria-hidden> → </span>
            <span className="sr-only"> became </span>
            {formatChangeValue(change?.after)}
          </li>
        );
      })}
    </ul>
  );
}

function AuditTable({ entries }: { entries: AuditEntryView[] }) {
  return (
    <AdminTableRegion label="Audit entries table">
      <TableHeader>
        <TableRow>
          <TableHead>Time</TableHead>
          <TableHead>Actor</TableHead>
          <TableHead>Action</TableHead>
          <TableHead>Customer</TableHead>
          <TableHead>Target</TableHead>
          <TableHead>Changes (before → after)</TableHead>
          <TableHead>Reason</TableHead>
          <TableHead>From where</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {entries.map((entry) => (
          <TableRow key={entry.seq} data-testid="audit-entry">
            <TableCell className="align-top">
              <time dateTime={new Date(entry.at).toISOString()}>{formatInstant(entry.at)}</time>
            </TableCell>
            <TableCell className="align-top">
              <span className="block">{entry.actor_label || entry.actor_id}</span>
              <span className="block text-xs text-muted-foreground">{entry.actor_kind}</span>
            </TableCell>
            <TableCell className="align-top">
              <span className="block font-mono text-xs">{entry.action}</span>
              {entry.kind !== 'change' && (
                <Badge variant="outline" className="mt-1">
                  {entry.kind}
                </Badge>
              )}
            </TableCell>
            <TableCell className="align-top">{entry.subject_email || entry.subject_user_id || '—'}</TableCell>
            <TableCell className="min-w-44 max-w-64 align-top font-mono text-xs whitespace-normal break-all">
              {entry.target || '—'}
            </TableCell>
            <TableCell className="max-w-72 align-top whitespace-normal">
              <Changes entry={entry} />
            </TableCell>
            <TableCell className="max-w-56 align-top whitespace-normal">{entry.reason || '—'}</TableCell>
            <TableCell className="max-w-56 align-top whitespace-normal">
              <span className="block">{entry.ip || '—'}</span>
              {entry.user_agent && (
                <span className="block truncate text-xs text-muted-foreground" title={entry.user_agent}>
                  {entry.user_agent}
                </span>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </AdminTableRegion>
  );
}

/** The server's refusal of a filter, under the filter it names. */
function filterErrors(err: unknown): Partial<Record<keyof AuditSearch, string>> {
  const out: Partial<Record<keyof AuditSearch, string>> = {};
  for (const key of Object.keys(FILTER_FIELDS) as (keyof AuditSearch)[]) {
    const message = serverFieldError(err, FILTER_FIELDS[key]);
    if (message) out[key] = message;
  }
  return out;
}

/**
 * The audit trail, newest first, under the filters the address holds: "Load more" pages back,
 * "Export CSV" downloads the same selection.
 */
export function AdminAuditScreen({
  search,
  onSearchChange,
}: {
  search: AuditSearch;
  onSearchChange: (search: AuditSearch) => void;
}) {
  const trail = useAuditTrail(search);
  const [exporting, setExporting] = React.useState(false);
  const errors = trail.isError ? filterErrors(trail.error) : {};
  const entries = trail.data?.pages.flatMap((page) => page.entries);

  async function exportCsv() {
    if (exporting) return;
    setExporting(true);
    try {
      const answer = await exportAudit(search);
      downloadText(answer.filename, answer.csv);
      toast.success('Audit trail exported', {
        description: answer.truncated
          ? `${answer.rows} entries, the newest: the filter matched more. Narrow it to export the rest.`
          : `${answer.rows} entries in ${answer.filename}.`,
      });
    } catch (err) {
      toast.error('Export failed', {
        description: err instanceof Error ? err.message : 'Please try again.',
        duration: ERROR_TOAST_MS,
      });
    } finally {
      setExporting(false);
    }
  }

  return (
    <>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">Audit trail</h1>
          <p className="text-muted-foreground">Every staff, key, Stripe and security action, newest first.</p>
        </div>
        <Button
          variant="outline"
          onClick={() => void exportCsv()}
          disabled={exporting}
          aria-busy={exporting || undefined}
        >
          {exporting ? <Loader2Icon className="animate-spin" aria-hidden /> : <DownloadIcon aria-hidden />}
          Export CSV
        </Button>
      </div>
      <Filters search={search} errors={errors} onSearchChange={onSearchChange} />
      <section aria-labelledby="audit-entries-title" className="grid min-w-0 grid-cols-1 gap-3">
        <h2 id="audit-entries-title" className="sr-only">
          Entries
        </h2>
        {entries ? (
          entries.length ? (
            <>
              <AuditTable entries={entries} />
              {trail.hasNextPage && (
                <Button
                  variant="outline"
                  className="w-fit"
                  onClick={() => void trail.fetchNextPage()}
                  disabled={trail.isFetchingNextPage}
                  aria-busy={trail.isFetchingNextPage || undefined}
                >
                  {trail.isFetchingNextPage && <Loader2Icon className="animate-spin" aria-hidden />}
                  Load more
                </Button>
              )}
            </>
          ) : (
            <p className="text-sm text-muted-foreground">No entries match these filters.</p>
          )
        ) : trail.isError ? (
          Object.keys(errors).length ? (
            <p className="text-sm text-destructive">Correct the filters above.</p>
          ) : (
            <AdminLoadError
              title="The audit trail could not be loaded"
              error={trail.error}
              onRetry={() => void trail.refetch()}
            />
          )
        ) : (
          <AdminLoadingRows label="Loading the audit trail" rows={3} />
        )}
      </section>
    </>
  );
}
