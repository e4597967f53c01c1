import { useNavigate } from '@tanstack/react-router';
import {
  type ColumnDef,
  columnFilteringFeature,
  columnVisibilityFeature,
  createFilteredRowModel,
  createPaginatedRowModel,
  createSortedRowModel,
  rowPaginationFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
} from '@tanstack/react-table';
import {
  ArrowDownIcon,
  ArrowUpDownIcon,
  ArrowUpIcon,
  ChevronLeftIcon,
  ChevronRightIcon,
  Columns3Icon,
  EllipsisIcon,
} from 'lucide-react';
import { SearchField } from '@/components/form/search-field';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { ERROR_TOAST_MS } from '@/config/constants';
import { env } from '@/config/env';
import { formatDateTime } from '@/lib/dates';
import { toast } from '@/lib/toast';
import { compareStatus, type DriverRow, matchesModel } from '../subscriptions-rows';
import { rowActions, viewRobotTarget } from '../subscriptions-table';
import { SUBSCRIPTIONS_TEXT } from '../subscriptions-text';
import { StatusBadge } from './subscriptions-status-badge';

export const DRIVERS_PAGE_SIZE = 10;

/** Where "Robot Not Paired" sends the user: the documentation's guide to registering a robot. */
export const REGISTRATION_GUIDE_URL = new URL('robot-registration', `${env.docsUrl.replace(/\/+$/, '')}/`).href;

const features = tableFeatures({
  rowSortingFeature,
  columnFilteringFeature,
  columnVisibilityFeature,
  rowPaginationFeature,
  sortedRowModel: createSortedRowModel(),
  filteredRowModel: createFilteredRowModel(),
  paginatedRowModel: createPaginatedRowModel(),
});

type Features = typeof features;

function RowActions({ row }: { row: DriverRow }) {
  const navigate = useNavigate();
  const viewRobot = () => {
    const target = viewRobotTarget(row.robotId, 'subscriptionsTable');
    if ('href' in target) {
      void navigate({ to: '/dashboard/robot/manager/$robotID', params: { robotID: row.robotId } });
      return;
    }
    toast.error(target.toast.title, { description: target.toast.description, duration: ERROR_TOAST_MS });
    window.open(REGISTRATION_GUIDE_URL, '_blank', 'noopener,noreferrer');
  };
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="size-8" aria-label={`Actions for ${row.product}`}>
          <EllipsisIcon aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        {rowActions(row.status, row.subscriptionId).map((action) =>
          action.kind === 'viewRobot' ? (
            <DropdownMenuItem key={action.kind} onSelect={viewRobot}>
              {action.label}
            </DropdownMenuItem>
          ) : action.kind === 'manageSubscription' ? (
            <DropdownMenuItem
              key={action.kind}
              onSelect={() =>
                void navigate({
                  to: '/dashboard/subscriptions/manager/stripe/$subscriptionID',
                  params: { subscriptionID: row.subscriptionId },
                })
              }
            >
              {action.label}
            </DropdownMenuItem>
          ) : (
            <DropdownMenuItem key={action.kind} onSelect={() => void navigate({ to: '/dashboard/support' })}>
              {action.label}
            </DropdownMenuItem>
          ),
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

const dash = <span className="text-muted-foreground">—</span>;

const columns: ColumnDef<Features, DriverRow>[] = [
  {
    id: 'model',
    accessorKey: 'model',
    header: 'Robot Model',
    filterFn: (row, _columnId, value) => matchesModel(row.original, String(value ?? '')),
    cell: ({ row }) => row.original.model || dash,
  },
  { id: 'product', accessorKey: 'product', header: 'Product' },
  {
    id: 'status',
    accessorKey: 'statusLabel',
    header: 'Status',
    sortFn: (a, b) => compareStatus(a.original, b.original),
    cell: ({ row }) => (
      <span className="flex flex-wrap items-center gap-1">
        <StatusBadge status={row.original.status} />
        {row.original.badge && <Badge variant="outline">{row.original.badge}</Badge>}
        {row.original.cancelAtPeriodEnd && <Badge variant="outline">{SUBSCRIPTIONS_TEXT.cancelsAtPeriodEnd}</Badge>}
      </span>
    ),
  },
  {
    id: 'duration',
    accessorKey: 'durationS',
    header: 'Duration',
    cell: ({ row }) => row.original.duration,
  },
  {
    id: 'started',
    accessorKey: 'createdAtMs',
    header: 'Started',
    cell: ({ row }) => formatDateTime(row.original.createdAtMs),
  },
  {
    id: 'expires',
    accessorKey: 'expiresAtMs',
    header: 'Expires',
    cell: ({ row }) => formatDateTime(row.original.expiresAtMs),
  },
  {
    id: 'actions',
    header: () => <span className="sr-only">Actions</span>,
    enableSorting: false,
    enableHiding: false,
    cell: ({ row }) => <RowActions row={row.original} />,
  },
];

const COLUMN_NAMES: Record<string, string> = {
  model: 'Robot Model',
  product: 'Product',
  status: 'Status',
  duration: 'Duration',
  started: 'Started',
  expires: 'Expires',
};

function SortIcon({ direction }: { direction: false | 'asc' | 'desc' }) {
  if (direction === 'asc') return <ArrowUpIcon aria-hidden />;
  if (direction === 'desc') return <ArrowDownIcon aria-hidden />;
  return <ArrowUpDownIcon aria-hidden className="opacity-50" />;
}

/**
 * The Robot Driver Subscriptions table (spec/001 §2): sorted by status by default, filtered on the
 * robot model, paged, with a choice of columns and each row's actions by its status (§4).
 */
export function DriversTable({ rows }: { rows: DriverRow[] }) {
  const table = useTable({
    features,
    columns,
    data: rows,
    getRowId: (row) => row.id,
    initialState: {
      sorting: [{ id: 'status', desc: false }],
      pagination: { pageIndex: 0, pageSize: DRIVERS_PAGE_SIZE },
    },
  });
  const modelColumn = table.getColumn('model');
  const filter = String(modelColumn?.getFilterValue() ?? '');
  const pageCount = Math.max(1, table.getPageCount());
  const visibleRows = table.getRowModel().rows;
  const colSpan = table.getVisibleLeafColumns().length;

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <SearchField
            label="Filter by robot model"
            placeholder={SUBSCRIPTIONS_TEXT.filterPlaceholder}
            value={filter}
            onChange={(e) => {
              modelColumn?.setFilterValue(e.target.value);
              table.setPageIndex(0);
            }}
            className="sm:w-64"
          />
        </div>
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="outline" size="sm" className="w-fit">
              <Columns3Icon aria-hidden />
              Columns
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            <DropdownMenuLabel>Show columns</DropdownMenuLabel>
            <DropdownMenuSeparator />
            {table
              .getAllLeafColumns()
              .filter((c) => c.getCanHide())
              .map((column) => (
                <DropdownMenuCheckboxItem
                  key={column.id}
                  checked={column.getIsVisible()}
                  onCheckedChange={(checked) => column.toggleVisibility(Boolean(checked))}
                  onSelect={(e) => e.preventDefault()}
                >
                  {COLUMN_NAMES[column.id] ?? column.id}
                </DropdownMenuCheckboxItem>
              ))}
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
      <div className="rounded-lg border">
        <Table aria-label={SUBSCRIPTIONS_TEXT.driversTitle}>
          <TableHeader>
            {table.getHeaderGroups().map((group) => (
              <TableRow key={group.id} className="hover:bg-transparent">
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  return (
                    <TableHead
                      key={header.id}
                      aria-sort={
                        header.column.getCanSort()
                          ? sorted === 'asc'
                            ? 'ascending'
                            : sorted === 'desc'
                              ? 'descending'
                              : 'none'
                          : undefined
                      }
                    >
                      {header.isPlaceholder ? null : header.column.getCanSort() ? (
                        <Button
                          variant="ghost"
                          size="sm"
                          className="-ml-2 h-8"
                          onClick={header.column.getToggleSortingHandler()}
                        >
                          <table.FlexRender header={header} />
                          <SortIcon direction={sorted} />
                        </Button>
                      ) : (
                        <table.FlexRender header={header} />
                      )}
                    </TableHead>
                  );
                })}
              </TableRow>
            ))}
          </TableHeader>
          <TableBody>
            {visibleRows.length === 0 ? (
              <TableRow className="hover:bg-transparent">
                <TableCell colSpan={colSpan} className="h-20 text-center text-muted-foreground">
                  {SUBSCRIPTIONS_TEXT.noDrivers}
                </TableCell>
              </TableRow>
            ) : (
              visibleRows.map((row) => (
                <TableRow key={row.id} data-testid="driver-row">
                  {row.getVisibleCells().map((cell) => (
                    <TableCell key={cell.id}>
                      <table.FlexRender cell={cell} />
                    </TableCell>
                  ))}
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </div>
      <nav aria-label="Subscriptions pages" className="flex items-center justify-end gap-3">
        <span className="text-sm text-muted-foreground">
          Page {table.state.pagination.pageIndex + 1} of {pageCount}
        </span>
        <Button variant="outline" size="sm" disabled={!table.getCanPreviousPage()} onClick={() => table.previousPage()}>
          <ChevronLeftIcon aria-hidden />
          Previous
        </Button>
        <Button variant="outline" size="sm" disabled={!table.getCanNextPage()} onClick={() => table.nextPage()}>
          Next
          <ChevronRightIcon aria-hidden />
        </Button>
      </nav>
    </div>
  );
}
