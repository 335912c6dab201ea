/**
 * A list's filters kept in the URL query, as consoles do: a reload or a shared link shows the same
 * list, back and forward step through the searches, and a link may open a list already filtered
 * (控制台's 未清除告警 opens 告警管理 at ?status=active). Only the screen on show reads and writes
 * the URL: the shell keeps other tabs mounted, and their filters stay as they were.
 */
import { useEffect, useEffectEvent, useState } from 'react';
import { NavigationType, useLocation, useNavigate, useNavigationType } from 'react-router-dom';

import { useScreenActive } from '../../hooks/use-screen-activity';
import type { FieldConfig, FormValues } from './types';

/** The query keys a filter travels under: a time range's two params, else its name. */
function keysOf(field: FieldConfig): readonly string[] {
  return field.kind === 'timeRange' && field.range ? field.range : [field.name];
}

const numberValued = (field: FieldConfig) => field.kind === 'number' || field.kind === 'timeRange' || field.kind === 'switch' || field.numeric === true;

/** The filters a query names, as the list sends them (a number that does not read as one is left out). */
export function filtersOfQuery(fields: FieldConfig[], search: string): FormValues {
  const query = new URLSearchParams(search);
  const filters: FormValues = {};
  for (const field of fields) {
    for (const key of keysOf(field)) {
      const text = query.get(key)?.trim();
      if (!text) continue;
      if (!numberValued(field)) filters[key] = text;
      else if (Number.isFinite(Number(text))) filters[key] = Number(text);
    }
  }
  return filters;
}

/** `search` with the filters in place of any it named (other keys kept), e.g. ?status=active. */
export function queryOfFilters(fields: FieldConfig[], filters: FormValues, search: string): string {
  const query = new URLSearchParams(search);
  const keys = fields.flatMap(keysOf);
  for (const key of keys) query.delete(key);
  for (const key of keys) {
    const value = filters[key];
    if (typeof value === 'string' || typeof value === 'number') query.set(key, String(value));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

const sameFilters = (a: FormValues, b: FormValues) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
};

/** The filters the URL names when the screen opens. */
export function useInitialUrlFilters(fields: FieldConfig[]): FormValues {
  const { search } = useLocation();
  return useState(() => filtersOfQuery(fields, search))[0];
}

/**
 * Keeps the URL and the list's filters (as sent, without the fixed params) in step: a search
 * pushes its filters to the URL; back, forward or a link naming filters applies them; arriving
 * without any (a tab switch, the menu) writes the list's own filters back in place.
 */
export function useUrlFilters(fields: FieldConfig[], filters: FormValues, apply: (filters: FormValues) => void): void {
  const location = useLocation();
  const navigationType = useNavigationType();
  const navigate = useNavigate();
  const active = useScreenActive();
  // Per navigation (and when the screen comes on show), with the filters of that moment.
  const onNavigation = useEffectEvent(() => {
    const query = new URLSearchParams(location.search);
    const named = fields.flatMap(keysOf).some((key) => query.has(key));
    const wanted = filtersOfQuery(fields, location.search);
    if (named || navigationType === NavigationType.Pop) {
      if (!sameFilters(wanted, filters)) apply(wanted);
    } else if (Object.keys(filters).length > 0) {
      void navigate({ pathname: location.pathname, search: queryOfFilters(fields, filters, location.search), hash: location.hash }, { replace: true });
    }
  });
  // A new search pushes a history entry; the filters a navigation applied already match the URL.
  const onSearch = useEffectEvent(() => {
    if (!active || sameFilters(filtersOfQuery(fields, location.search), filters)) return;
    void navigate({ pathname: location.pathname, search: queryOfFilters(fields, filters, location.search), hash: location.hash });
  });

  useEffect(() => {
    if (active) onNavigation();
  }, [location, active]);

  useEffect(() => {
    onSearch();
  }, [filters]);
}
