/**
 * The menu dictionary (docs/api/session.md, a menu's dictionary): the dictionary entries bound to the field resources of the
 * screen's menu. They are the select options and the value labels of the screen, so option lists
 * are data. A failed query toasts 菜单数据字典查询失败 and leaves the screen on raw values.
 */
import { skipToken } from '@reduxjs/toolkit/query/react';
import { createContext, useContext, useMemo } from 'react';
import { useSelector } from 'react-redux';

import type { DataOf } from '../../../contract';
import { api } from '../../lib/http/api';
import { postQuery } from '../../lib/http/endpoints';
import { selectMenuEntry, type SessionRoot } from '../../lib/session';
import type { SelectOption } from './types';
import type { ViewName } from '../../config/views';

export const MENU_DICT_FAILURE_MSG = '菜单数据字典查询失败';

type MenuDictEntry = DataOf<'/sys/dict/resource/inquire'>[number];

const menuDictApi = api.injectEndpoints({
  endpoints: (build) => ({
    menuDict: postQuery(build, '/sys/dict/resource/inquire', {
      providesTags: ['MenuDict'],
      extraOptions: { failureMsg: MENU_DICT_FAILURE_MSG },
    }),
  }),
});

/** The id of the authorised menu entry showing `view` (its element), if the user has one. */
export function useMenuId(view: ViewName): number | undefined {
  return useSelector((state: SessionRoot) => selectMenuEntry(state, view)?.id);
}

export interface MenuDict {
  /** The options of a field, in dictionary order; values converted to numbers for numeric fields. */
  optionsOf: (field: string, numeric?: boolean) => SelectOption[];
  /** The label of a stored value, or the value itself when the dictionary has none. */
  labelOf: (field: string, value: unknown) => string;
}

export function toMenuDict(entries: readonly MenuDictEntry[]): MenuDict {
  return {
    optionsOf: (field, numeric = false) =>
      entries
        .filter((entry) => entry.field === field)
        .sort((a, b) => a.sort - b.sort)
        .map((entry) => ({ value: numeric ? Number(entry.value) : entry.value, label: entry.label })),
    labelOf: (field, value) => {
      if (value === null || value === undefined) return '';
      // Stored values are numbers or strings; the dictionary keeps their text.
      const raw = typeof value === 'string' ? value : JSON.stringify(value);
      return entries.find((entry) => entry.field === field && entry.value === raw)?.label ?? raw;
    },
  };
}

const NO_ENTRIES: MenuDictEntry[] = [];

export function useMenuDict(view: ViewName): MenuDict {
  const menuId = useMenuId(view);
  const { data } = menuDictApi.useMenuDictQuery(menuId === undefined ? skipToken : { menuId });
  const entries = data ?? NO_ENTRIES;
  return useMemo(() => toMenuDict(entries), [entries]);
}

export const MenuDictContext = createContext<MenuDict>(toMenuDict(NO_ENTRIES));

export function useMenuDictContext(): MenuDict {
  return useContext(MenuDictContext);
}
