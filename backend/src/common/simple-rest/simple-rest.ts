import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { ValidationError } from '../errors/app-error';
import type { Response } from 'express';

/**
 * The list dialect of ra-data-simple-rest, so the console needs no hand-written data layer:
 * `?sort=["field","ASC"]&range=[0,99]&filter={"q":"ann"}`, answered with a JSON array and
 * `Content-Range: <resource> <start>-<end>/<total>`.
 */
export class SimpleRestQueryDto {
  @ApiPropertyOptional({ description: 'JSON ["field","ASC"|"DESC"]', example: '["created_at","DESC"]' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  sort?: string;

  @ApiPropertyOptional({ description: 'JSON [start,end], both inclusive', example: '[0,49]' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  range?: string;

  @ApiPropertyOptional({ description: 'JSON object of filters, e.g. {"q":"ann"}', example: '{}' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  filter?: string;

  @ApiPropertyOptional({ description: 'search text (same as filter.q)' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;
}

export interface ListOptions<F extends string> {
  /** fields a client may sort by, mapped to SQL expressions (never interpolate client text) */
  sortable: Record<string, string>;
  defaultSort: [string, 'ASC' | 'DESC'];
  defaultPageSize: number;
  /** filter names accepted (others are refused) */
  filters: readonly F[];
  maxPageSize?: number;
}

export interface ListParams<F extends string> {
  /** a safe SQL ORDER BY expression, e.g. `u.created_at DESC` */
  orderBy: string;
  sortField: string;
  sortOrder: 'ASC' | 'DESC';
  offset: number;
  limit: number;
  filter: Partial<Record<F, unknown>>;
}

function parseJson(raw: string, what: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new ValidationError(`Invalid ${what}: expected JSON`);
  }
}

export function parseListQuery<F extends string>(query: SimpleRestQueryDto, options: ListOptions<F>): ListParams<F> {
  const max = options.maxPageSize ?? 500;
  let [sortField, sortOrder] = options.defaultSort;
  if (query.sort) {
    const sort = parseJson(query.sort, 'sort');
    if (
      !Array.isArray(sort) ||
      sort.length !== 2 ||
      typeof sort[0] !== 'string' ||
      !['ASC', 'DESC'].includes(String(sort[1]).toUpperCase())
    ) {
      throw new ValidationError('Invalid sort: expected ["field","ASC"|"DESC"]');
    }
    if (!Object.hasOwn(options.sortable, sort[0])) throw new ValidationError(`Cannot sort by "${sort[0]}"`);
    sortField = sort[0];
    sortOrder = String(sort[1]).toUpperCase() as 'ASC' | 'DESC';
  }
  let offset = 0;
  let limit = options.defaultPageSize;
  if (query.range) {
    const range = parseJson(query.range, 'range');
    if (!Array.isArray(range) || range.length !== 2 || !range.every((n) => Number.isSafeInteger(n) && n >= 0) || range[1] < range[0]) {
      throw new ValidationError('Invalid range: expected [start,end] with 0 <= start <= end');
    }
    offset = range[0];
    limit = Math.min(range[1] - range[0] + 1, max);
  }
  const filter: Partial<Record<F, unknown>> = {};
  if (query.filter) {
    const parsed = parseJson(query.filter, 'filter');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new ValidationError('Invalid filter: expected a JSON object');
    for (const [key, value] of Object.entries(parsed)) {
      if (!(options.filters as readonly string[]).includes(key)) throw new ValidationError(`Unknown filter "${key}"`);
      if (value === undefined || value === null || value === '') continue;
      // react-admin's getMany sends {"id":[...]}: a list of plain values is kept (services decide)
      const plainList = Array.isArray(value) && value.length <= 500 && value.every((v) => typeof v === 'string' || typeof v === 'number');
      if (typeof value === 'object' && !plainList) throw new ValidationError(`Invalid filter "${key}"`);
      filter[key as F] = value;
    }
  }
  if (query.q !== undefined && query.q !== '' && (options.filters as readonly string[]).includes('q')) filter['q' as F] = query.q;
  // a stable order: ties broken by id
  const expr = options.sortable[sortField];
  const idExpr = options.sortable.id;
  const orderBy = idExpr && sortField !== 'id' ? `${expr} ${sortOrder}, ${idExpr} ${sortOrder}` : `${expr} ${sortOrder}`;
  return { orderBy, sortField, sortOrder, offset, limit, filter };
}

/** `Content-Range: users 0-99/1234`; for an empty page `users *\/0`. */
export function setContentRange(res: Response, resource: string, offset: number, count: number, total: number): void {
  res.setHeader('Content-Range', count > 0 ? `${resource} ${offset}-${offset + count - 1}/${total}` : `${resource} */${total}`);
}

/** A LIKE pattern matching `text` literally anywhere (%, _ and \ escaped). Use with ILIKE ... ESCAPE '\'. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A filter value as a string from a fixed set, or a 400. */
export function oneOf<T extends string>(value: unknown, allowed: readonly T[], name: string): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new ValidationError(`Invalid ${name}: expected one of ${allowed.join(', ')}`);
  }
  return value as T;
}

/** A filter value as one piece of text (a list is refused), or undefined when absent. */
export function textFilter(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' && typeof value !== 'number') throw new ValidationError(`Invalid filter "${name}"`);
  return String(value);
}
