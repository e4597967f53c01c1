import { type AuditEntryView, admin } from '@portal/contract';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { type AuditSearch, auditFilterOf } from '../admin-search';

/** Entries a page of the trail asks for. */
export const AUDIT_PAGE_SIZE = 50;

export interface AuditPage {
  entries: AuditEntryView[];
  /** the before_seq of the next page, 0 when this is the last */
  next_before_seq: number;
}

export async function fetchAuditPage(search: AuditSearch, beforeSeq: number): Promise<AuditPage> {
  const { entries, next_before_seq } = await apiClient.call(admin, 'ListAudit', {
    ...auditFilterOf(search),
    ...(beforeSeq ? { before_seq: beforeSeq } : {}),
    limit: AUDIT_PAGE_SIZE,
  });
  return { entries, next_before_seq };
}

export const auditKey = (search: AuditSearch) => ['admin', 'ListAudit', search] as const;

/** Newest first; "Load more" asks for the entries before the last one shown. */
export function auditQueryOptions(search: AuditSearch) {
  return infiniteQueryOptions({
    queryKey: auditKey(search),
    queryFn: ({ pageParam }) => fetchAuditPage(search, pageParam),
    initialPageParam: 0,
    getNextPageParam: (last: AuditPage) => last.next_before_seq || undefined,
    staleTime: 5_000,
  });
}

export function useAuditTrail(search: AuditSearch) {
  return useInfiniteQuery(auditQueryOptions(search));
}

/** ExportAudit under the same filters: the CSV and its file name (the export is itself a read entry). */
export function exportAudit(search: AuditSearch) {
  return apiClient.call(admin, 'ExportAudit', auditFilterOf(search));
}

/** Hands a text to the browser as a file download. */
export function downloadText(filename: string, text: string, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file to the browser.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
