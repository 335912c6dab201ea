/**
 * Resources under a menu (managed on sys/menu). `type` is a category and a key joined by an
 * underscore (docs/api/system.md, resources): `api_inquire` guards the API path in `path`; `field_state` is a form field
 * whose options come from the dictionary entries bound to it (sys/dict).
 */
import { Type } from '@sinclair/typebox';
import { field, paged, sortRequest, versioned, pageFields } from '../common';
import { post, acts, reads } from '../endpoint';

export const RESOURCE_TYPE_PATTERN = '^(api|field|button)_[A-Za-z][A-Za-z0-9]{0,31}$';
export const API_PATH_PATTERN = '^(/[a-z][a-zA-Z0-9]*){2,5}$';

export const ResourceRecord = Type.Object({
  id: Type.Integer(),
  menuId: Type.Integer(),
  name: Type.String(),
  type: Type.String(),
  /** The API path an `api_*` resource guards; empty for other categories. */
  path: Type.String(),
  remark: Type.String(),
  version: Type.Integer(),
});

const resourceFields = {
  name: field.text('资源名称', 32),
  type: field.note('资源类型', 40, { pattern: RESOURCE_TYPE_PATTERN, patternHint: '格式为 类别_标识，类别为 api、field 或 button' }),
  path: field.note('接口路径', 100, { pattern: `(${API_PATH_PATTERN})|^$`, patternHint: '应形如 /sys/user/inquire，非接口资源留空' }),
  remark: field.remark(),
};

export const RESOURCE_SORT_KEYS = ['name', 'type', 'path'] as const;

export const ResourceMenuInquire = Type.Object(
  {
    ...pageFields(20),
    params: Type.Object(
      {
        menuId: field.id('菜单'),
        name: Type.Optional(field.note('资源名称', 32)),
        type: Type.Optional(field.note('资源类型', 40)),
      },
      { additionalProperties: false },
    ),
    sort: Type.Optional(sortRequest(RESOURCE_SORT_KEYS)),
  },
  { additionalProperties: false },
);

export const ResourceByMenu = Type.Object({ menuId: field.id('菜单') }, { additionalProperties: false });
export const ResourceCreation = Type.Object({ menuId: field.id('菜单'), ...resourceFields }, { additionalProperties: false });
export const ResourceEdit = Type.Object({ id: field.id(), ...resourceFields, ...versioned }, { additionalProperties: false });

/** Resources a dictionary entry can be bound to (field_* resources), with whether it is bound. */
export const BindableResource = Type.Object({
  id: Type.Integer(),
  menuId: Type.Integer(),
  menuName: Type.String(),
  name: Type.String(),
  type: Type.String(),
  bound: Type.Integer(),
});
export const BindableResourceInquire = Type.Object(
  {
    ...pageFields(20),
    params: Type.Object(
      {
        dictId: field.id('字典'),
        menuId: Type.Optional(field.id('菜单')),
        name: Type.Optional(field.note('资源名称', 32)),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const resourceEndpoints = {
  '/sys/resource/menu/inquire': post(ResourceMenuInquire, paged(ResourceRecord), reads),
  '/sys/resource/inquire': post(ResourceByMenu, Type.Array(ResourceRecord), reads),
  '/sys/resource/creation': post(ResourceCreation, ResourceRecord, acts('resource')),
  '/sys/resource/edit': post(ResourceEdit, ResourceRecord, acts('resource')),
  '/sys/resource/inquires': post(BindableResourceInquire, paged(BindableResource), reads),
};
