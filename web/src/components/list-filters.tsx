/**
 * Filter form and pager of the build and buildset lists. Values live in the URL with the REST
 * API's parameter names (`project`, `job_name`, `skip`, `limit`...); repeated values are OR'ed.
 */
import { useEffect, useState } from 'react';
import { useUrlParams, type UrlParams } from '../url';

export interface FilterField {
  name: string;
  label: string;
  /** Offered values (a select); free text otherwise. */
  options?: string[];
  /** A yes/no filter: `1`/`true` and `0`/`false` in the URL (the reference sends 1 and 0). */
  boolean?: boolean;
  placeholder?: string;
}

/** Fields shown at once; the rest are behind "More filters" (open when one of them is set). */
const VISIBLE = 5;

export function ListFilters({ fields }: { fields: FilterField[] }) {
  const params = useUrlParams();
  const initial = () => Object.fromEntries(fields.map((f) => [f.name, shown(f, params.all(f.name))]));
  const [draft, setDraft] = useState<Record<string, string>>(initial);
  useEffect(() => setDraft(initial()), [params]);
  const active = fields.some((f) => params.get(f.name) !== null);
  const renderField = (field: FilterField) => (
    <label key={field.name}>
      {field.label}
      {field.options || field.boolean ? (
        <select value={draft[field.name] ?? ''} onChange={(e) => setDraft({ ...draft, [field.name]: e.target.value })}>
          <option value="">any</option>
          {selectOptions(field, draft[field.name] ?? '').map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      ) : (
        <input
          value={draft[field.name] ?? ''}
          placeholder={field.placeholder ?? 'any'}
          onChange={(e) => setDraft({ ...draft, [field.name]: e.target.value })}
        />
      )}
    </label>
  );
  return (
    <form
      className="filters"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        const changes: Record<string, string[] | null> = { skip: null };
        for (const field of fields) {
          changes[field.name] = (draft[field.name] ?? '')
            .split(',')
            .map((v) => v.trim())
            .filter((v) => v !== '');
        }
        params.set(changes);
      }}
    >
      {fields.slice(0, VISIBLE).map(renderField)}
      {fields.length > VISIBLE && (
        <details className="more-filters" open={fields.slice(VISIBLE).some((f) => params.get(f.name) !== null)}>
          <summary>More filters</summary>
          <div className="filters-more">{fields.slice(VISIBLE).map(renderField)}</div>
        </details>
      )}
      <button type="submit">Filter</button>
      {active && (
        <button
          type="button"
          onClick={() => params.set(Object.fromEntries([...fields.map((f) => [f.name, null]), ['skip', null]]))}
        >
          Clear
        </button>
      )}
    </form>
  );
}

/** The form's text for a field's URL values: a yes/no filter as `true`/`false`, a list joined by commas. */
function shown(field: FilterField, values: string[]): string {
  if (field.boolean) {
    const value = bool(values[0] ?? null);
    return value === undefined ? (values[0] ?? '') : String(value);
  }
  return values.join(', ');
}

/**
 * A select's choices as [value, label]; a value the URL holds that is not among them (several
 * results, another spelling) is offered too, so the form always shows the filter in force.
 */
function selectOptions(field: FilterField, current: string): Array<[string, string]> {
  const choices: Array<[string, string]> = field.boolean
    ? [
        ['true', 'yes'],
        ['false', 'no'],
      ]
    : (field.options ?? []).map((o) => [o, o]);
  return current === '' || choices.some(([value]) => value === current) ? choices : [...choices, [current, current]];
}

export const PAGE_SIZES = [20, 50, 100, 200];

export function paging(params: UrlParams): { skip: number; limit: number } {
  const skip = Number.parseInt(params.get('skip') ?? '0', 10);
  const limit = Number.parseInt(params.get('limit') ?? '50', 10);
  return {
    skip: Number.isFinite(skip) && skip > 0 ? skip : 0,
    limit: Number.isFinite(limit) && limit > 0 ? Math.min(limit, 1000) : 50,
  };
}

export function Pager({ total, shown }: { total: number; shown: number }) {
  const params = useUrlParams();
  const { skip, limit } = paging(params);
  return (
    <nav className="pager" aria-label="Pages">
      <span>{total === 0 ? 'None' : `${skip + 1}–${skip + shown} of ${total}`}</span>
      <button
        type="button"
        disabled={skip === 0}
        onClick={() => params.set({ skip: skip - limit > 0 ? String(skip - limit) : null })}
      >
        Previous
      </button>
      <button type="button" disabled={skip + shown >= total} onClick={() => params.set({ skip: String(skip + limit) })}>
        Next
      </button>
      <label>
        Per page
        <select
          value={limit}
          onChange={(e) => params.set({ limit: e.target.value === '50' ? null : e.target.value, skip: null })}
        >
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
    </nav>
  );
}

/** Integers of a parameter, ignoring what is not one. */
export function ints(values: string[]): number[] {
  return values.map((v) => Number.parseInt(v, 10)).filter((n) => Number.isFinite(n));
}

/** `true`/`false` parameter as a boolean; undefined when absent or anything else. */
export function bool(value: string | null): boolean | undefined {
  return value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : undefined;
}

/** A list filter only when it has values (an empty list would match nothing). */
export function list<T>(values: T[]): T[] | undefined {
  return values.length > 0 ? values : undefined;
}
