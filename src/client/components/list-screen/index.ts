/**
 * The list-screen building block (antd Pro's ProTable idea, in our own small form): a screen is its
 * configuration, not a copy of another screen.
 *
 *   <ListScreen
 *     view="sys/user" noun="用户"                       // menu element (finds the menu dictionary)
 *     useInquire={useUserInquireQuery}                   // paged query hook: { size, current, params }
 *     pageSize={20}                                      // default PAGE_SIZE_DEFAULT
 *     filters={[{ name: 'state', label: '状态', kind: 'select', dict: 'state', numeric: true }]}
 *     columns={[{ title: '状态', dataIndex: 'state', dict: 'state' }]}   // antd columns + `dict` labels
 *     fields={[{ name: 'password', label: '密码', kind: 'password', required: true, only: 'create' }]}
 *     createDefaults={{ state: 1 }}
 *     toForm={(row) => values} fromForm={{ create: (values) => body, edit: (values, row) => body }}
 *     create={{ useMutation: useUserCreationMutation, successMsg: (envelope, values) => '...', onSuccess }}
 *     edit={{ useMutation: useUserEditMutation }}       // toast = server msg when successMsg is absent
 *     rowActions={(row, { openEdit, quickEdit }) => <Button .../>}
 *     toolbar={({ openAdd }) => ...}
 *   />
 *
 * - Field kinds: text, password, number, select (options from `dict`, or from a `useOptions` hook),
 *   switch (0/1 flag; labels from `dict`, else `switchLabels`, else 启用/禁用), textarea. `required`,
 *   `min`, `max`, `pattern` give Chinese validation messages; `only` limits a field to one dialog.
 *   `control` puts a screen's own input in place of the kind's (it gets id, value, onChange);
 *   `rules` (with `dependencies`) adds rules that depend on other fields.
 * - `fixedParams` (memoised): params every request of the list carries, e.g. `{ menuId }`.
 * - A body is the dialog's own fields; an edit adds the row's `id` and `version`; `fromForm`
 *   converts that body further (e.g. joins type and field_type), `toForm` does the reverse.
 * - After a successful save: success toast, form reset, dialog closed; the list reloads through the
 *   mutation's `invalidatesTags`. A failed save keeps the dialog open (the base query toasted msg).
 * - Table and pager alone (e.g. inside a dialog): `const inquiry = useInquire(useQueryHook,
 *   { pageSize: 10, fixedParams: { roleId }, skip: !open })` then `<PagedTable inquiry={inquiry}
 *   columns={...} />`; `inquiry.search(filters)` applies filters. TypeScript cannot infer the request
 *   type through RTK's generic hook: for an endpoint with required params, name the hook first,
 *   `const usePage: PagedQueryHook<BodyOf<'/x/inquire'>, Row> = useXInquireQuery`.
 * - `useMenuDict(view)` answers `optionsOf(field)` / `labelOf(field, value)` for screen-specific
 *   cells; inside `<ListScreen>` `useMenuDictContext()` gives the same without a second query.
 */
export { ListScreen } from './ListScreen';
export { PagedTable, type PagedTableProps } from './PagedTable';
export { FilterForm } from './FilterForm';
export { FormField } from './FormField';
export { SAVED_MSG, savedMsg } from './messages';
export { useInquire, toParams, type Inquiry, type InquireOptions } from './use-inquire';
export { useMenuDict, useMenuDictContext, useMenuId, MENU_DICT_FAILURE_MSG, type MenuDict } from './menu-dict';
export type {
  ColumnConfig,
  EditableRow,
  CustomControlProps,
  FieldConfig,
  FieldKind,
  FormValues,
  ListScreenActions,
  ListScreenProps,
  MutationHook,
  PagedArg,
  PagedQueryHook,
  SaveConfig,
  SelectOption,
} from './types';
