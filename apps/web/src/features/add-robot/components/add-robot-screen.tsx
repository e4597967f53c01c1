import { ChevronLeftIcon, ChevronRightIcon, TriangleAlertIcon, XIcon } from 'lucide-react';
import * as React from 'react';
import { SearchField } from '@/components/form/search-field';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { ADD_ROBOT_PAGE_SIZE } from '@/config/constants';
import { useProducts } from '@/lib/payment-products';
import {
  ADD_ROBOT_TEXT,
  filterAddRobotItems,
  filterMatchesNoModel,
  noModelMatchMessage,
  paginateRobots,
  ROBOT_SORT_OPTIONS,
  type RobotSort,
  sortRobots,
} from '../add-robot-catalogue';
import { addRobotItems } from '../add-robot-products';
import type { AddRobotSearch } from '../add-robot-search';
import { AddRobotCard, AddRobotNotListedCard } from './add-robot-card';

export const ADD_ROBOT_LOADING = 'Loading robots...';

const gridClass = 'grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4';

export interface AddRobotScreenProps {
  search: AddRobotSearch;
  onSearchChange: (next: Partial<AddRobotSearch>) => void;
}

/** Add Robot (spec/001 §2): the supported robot drivers for sale, filtered, sorted, 8 to a page. */
export function AddRobotScreen({ search, onSearchChange }: AddRobotScreenProps) {
  const products = useProducts();
  const sortId = React.useId();
  // The box keeps its own text so typing never waits on the address bar; the address follows it.
  const [filter, setFilter] = React.useState(search.filter);

  const items = React.useMemo(() => addRobotItems(products.data ?? []), [products.data]);
  const shown = React.useMemo(
    () => sortRobots(filterAddRobotItems(items, filter), search.sort),
    [items, filter, search.sort],
  );
  const page = paginateRobots(shown, search.page, ADD_ROBOT_PAGE_SIZE);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-4 md:flex-row md:items-end md:justify-between">
        <h1 className="text-2xl font-semibold tracking-tight">{ADD_ROBOT_TEXT.title}</h1>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="flex flex-col gap-1.5">
            <SearchField
              label={ADD_ROBOT_TEXT.filterPlaceholder}
              placeholder={ADD_ROBOT_TEXT.filterPlaceholder}
              value={filter}
              onChange={(e) => {
                setFilter(e.target.value);
                onSearchChange({ filter: e.target.value, page: 1 });
              }}
              className="sm:w-64"
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={sortId} className="sr-only">
              Sort robots
            </Label>
            <NativeSelect
              id={sortId}
              value={search.sort}
              onChange={(e) => onSearchChange({ sort: e.target.value as RobotSort, page: 1 })}
              className="sm:w-44"
            >
              {ROBOT_SORT_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </NativeSelect>
          </div>
        </div>
      </div>

      {products.isPending ? (
        <div role="status" aria-live="polite">
          <span className="sr-only">{ADD_ROBOT_LOADING}</span>
          <ul className={gridClass} aria-hidden>
            {Array.from({ length: ADD_ROBOT_PAGE_SIZE }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to tell them apart
              <li key={i}>
                <Skeleton className="h-80 rounded-xl" />
              </li>
            ))}
          </ul>
        </div>
      ) : products.isError ? (
        <Alert variant="destructive">
          <TriangleAlertIcon aria-hidden />
          <AlertTitle>Something went wrong</AlertTitle>
          <AlertDescription>
            <p>{products.error.message}</p>
            <Button variant="outline" size="sm" className="mt-2" onClick={() => void products.refetch()}>
              Try Again
            </Button>
          </AlertDescription>
        </Alert>
      ) : (
        <>
          {filterMatchesNoModel(shown, filter) && (
            <div
              role="status"
              className="flex flex-col gap-3 rounded-lg border border-dashed p-4 text-sm sm:flex-row sm:items-center sm:justify-between"
            >
              <p>{noModelMatchMessage(filter)}</p>
              <Button
                variant="outline"
                size="sm"
                className="self-start sm:self-auto"
                onClick={() => {
                  setFilter('');
                  onSearchChange({ filter: '', page: 1 });
                }}
              >
                <XIcon aria-hidden />
                {ADD_ROBOT_TEXT.clearFilter}
              </Button>
            </div>
          )}
          <ul className={gridClass} aria-label="Robots">
            {page.items.map((item) => (
              <AddRobotCard key={item.product.id} item={item} />
            ))}
            {page.showGenericCard && <AddRobotNotListedCard model={filter.trim()} />}
          </ul>
          {page.pageCount > 1 && (
            <nav aria-label="Pagination" className="flex items-center justify-center gap-3">
              <Button
                variant="outline"
                size="sm"
                disabled={page.page <= 1}
                onClick={() => onSearchChange({ page: page.page - 1 })}
              >
                <ChevronLeftIcon aria-hidden />
                Previous
              </Button>
              <span className="text-sm text-muted-foreground" aria-current="page">
                Page {page.page} of {page.pageCount}
              </span>
              <Button
                variant="outline"
                size="sm"
                disabled={page.page >= page.pageCount}
                onClick={() => onSearchChange({ page: page.page + 1 })}
              >
                Next
                <ChevronRightIcon aria-hidden />
              </Button>
            </nav>
          )}
        </>
      )}
    </div>
  );
}
