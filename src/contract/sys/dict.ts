/**
 * Dictionary entries (sys/dict), grouped by code, bound to field_* resources. The screens read
 * their select options and value labels from here, so option lists are data, not code.
 */
import { Type } from '@sinclair/typebox';
import { field, pagedRequest, paged, versioned, listExport } from '../common';
import { download, post, acts, reads } from '../endpoint';

export const DictRecord = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  label: Type.String(),
  value: Type.String(),
  sort: Type.Integer(),
  state: Type.Integer(),
  remark: Type.String(),
  version: Type.Integer(),
  createdAt: field.time(),
  updatedAt: field.time(),
});

export const DICT_SORT_KEYS = ['code', 'label', 'value', 'sort', 'state'] as const;

export const DictInquire = pagedRequest(
  {
    code: field.note('字典编码', 40),
    label: field.note('名称', 32),
    state: field.flag('状态'),
  },
  DICT_SORT_KEYS,
);

const dictFields = {
  code: field.text('字典编码', 40, {
    pattern: '^[a-z][a-z0-9_]{0,39}$',
    patternHint: '只能包含小写字母、数字和下划线，以字母开头',
  }),
  label: field.text('名称', 32),
  value: field.text('值', 40),
  sort: field.int('排序', 0, 9999),
  state: field.flag('状态'),
  remark: field.remark(),
};
export const DictCreation = Type.Object(dictFields, { additionalProperties: false });
export const DictEdit = Type.Object({ id: field.id(), ...dictFields, ...versioned }, { additionalProperties: false });

export const DictBindBody = Type.Object({ resourceId: field.id('资源'), dictId: field.id('字典') }, { additionalProperties: false });

/** An enabled entry bound to one of the menu's field resources; `field` is the key after `field_`. */
export const MenuDictEntry = Type.Object({
  resourceId: Type.Integer(),
  field: Type.String(),
  dictId: Type.Integer(),
  code: Type.String(),
  label: Type.String(),
  value: Type.String(),
  sort: Type.Integer(),
});
export const MenuDictQuery = Type.Object({ menuId: field.id('菜单') }, { additionalProperties: false });

export const dictEndpoints = {
  '/sys/dict/inquire': post(DictInquire, paged(DictRecord), reads),
  '/sys/dict/creation': post(DictCreation, DictRecord, acts('dict')),
  '/sys/dict/edit': post(DictEdit, DictRecord, acts('dict')),
  '/sys/dict/export': download(listExport(DictInquire)),
  '/sys/dict/bind': post(DictBindBody, Type.Null(), acts('dict', 'body.dictId')),
  '/sys/dict/unbind': post(DictBindBody, Type.Null(), acts('dict', 'body.dictId')),
  '/sys/dict/resource/inquire': post(MenuDictQuery, Type.Array(MenuDictEntry), reads),
};
