import { Link } from '@tanstack/react-router';
import { SearchIcon } from 'lucide-react';
import * as React from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FormField, fieldProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useCustomerSearch } from '../api/admin-customers';
import { AdminLoadError } from './admin-load-error';
import { AdminTableRegion } from './admin-table-region';

const MATCH_LABELS: Record<string, string> = {
  email: 'Email',
  name: 'Name',
  company: 'Organisation',
  robot_id: 'Robot id',
  pairing_code: 'Pairing code',
  ticket_id: 'Ticket id',
  payment_id: 'Payment id',
};

/** Customer lookup: the start of an email, name, organisation, robot id, pairing code, ticket or payment id. */
export function AdminCustomerSearch() {
  const [draft, setDraft] = React.useState('');
  const [query, setQuery] = React.useState('');
  const [error, setError] = React.useState<string>();
  const results = useCustomerSearch(query);

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const q = draft.trim();
    if (q.length < 2) {
      setError('Search must be at least 2 characters');
      return;
    }
    setError(undefined);
    setQuery(q);
  }

  return (
    <>
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Customers</h1>
        <p className="text-muted-foreground">
          Find a customer by the start of their email, name or organisation, a robot id, a pairing code, a ticket id or
          a payment id.
        </p>
      </div>
      <form
        noValidate
        aria-label="Customer search"
        onSubmit={submit}
        className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-start"
      >
        <FormField id="customer-query" label="Search customers" error={error}>
          <Input
            {...fieldProps('customer-query', error)}
            type="search"
            autoComplete="off"
            value={draft}
            onChange={(e) => {
              setDraft(e.target.value);
              setError(undefined);
            }}
          />
        </FormField>
        <Button type="submit" className="sm:mt-[1.375rem]">
          <SearchIcon aria-hidden />
          Search
        </Button>
      </form>
      {query && (
        <section aria-labelledby="customer-results-title" className="grid min-w-0 grid-cols-1 gap-3">
          <h2 id="customer-results-title" className="text-lg font-semibold">
            Results
          </h2>
          {results.data ? (
            results.data.length ? (
              <AdminTableRegion label="Customers table">
                <TableHeader>
                  <TableRow>
                    <TableHead>Customer</TableHead>
                    <TableHead>Organisation</TableHead>
                    <TableHead>Tier</TableHead>
                    <TableHead>Matched</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {results.data.map((hit) => (
                    <TableRow key={hit.user_id}>
                      <TableCell className="p-2 align-top">
                        <Link
                          to="/admin/$"
                          params={{ _splat: `customers/${hit.user_id}` }}
                          className="font-medium break-all underline-offset-4 hover:underline"
                        >
                          {hit.email}
                        </Link>
                        {hit.name && <span className="block text-muted-foreground">{hit.name}</span>}
                      </TableCell>
                      <TableCell className="p-2 align-top">{hit.company || '—'}</TableCell>
                      <TableCell className="p-2 align-top">
                        <Badge variant="secondary">{hit.tier}</Badge>
                      </TableCell>
                      <TableCell className="p-2 align-top">
                        {hit.matched.map((m) => MATCH_LABELS[m] ?? m).join(', ')}
                        {hit.matched_value && (
                          <span className="block font-mono text-xs break-all text-muted-foreground">
                            {hit.matched_value}
                          </span>
                        )}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </AdminTableRegion>
            ) : (
              <p className="text-sm text-muted-foreground">No customer matches “{query}”.</p>
            )
          ) : results.isError ? (
            <AdminLoadError title="The search failed" error={results.error} onRetry={() => void results.refetch()} />
          ) : (
            <div className="grid gap-2" role="status" aria-label="Searching">
              <Skeleton className="h-10 w-full" />
            </div>
          )}
        </section>
      )}
    </>
  );
}
