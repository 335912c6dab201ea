/**
 * The list-screen building block (antd Pro's ProTable idea, in our own small form): a screen is its
 * configuration, not a copy of another screen.
 *
 *   <ListScreen
 *     view="sys/user" noun="用户"                       // menu element (finds the menu dictionary)
 *     useInquire={useUserInquireQuery}                   // paged query hook: { size, current, params }
 *     pageSize={20}                                      // default PAGE_SIZE_DEFAULT
 *     filters={[{ name: 'state', label: '状态', kind: 'select', dict: 'state', numeric: true }]}
 *     columns={[{ title: '状态', dataIndex: 'state', dict: 'state', sortKey: 'state' }]}   // antd columns + `dict` labels + server sort
 *     fields={[{ name: 'password', label: '密码', kind: 'password', required: true, only: 'create' }]}
 *     createDefaults={{ state: 1 }}
 *     toForm={(row) => values} fromForm={{ create: (values) => body, edit: (values, row) => body }}
 *     create={{ useMutation: useUserCreationMutation, successMsg: (envelope, values) => '...', onSuccess }}
 *     edit={{ useMutation: useUserEditMutation }}       // toast = server msg when successMsg is absent
 *     detail={{ title: (row) => '...', render: (row) => <Detail row={row} /> }}   // 详情 drawer
 *     rowActions={(row, { openEdit, quickEdit }) => <Permitted view="sys/user" resource="api_passwordReset"><Button .../></Permitted>}
 *     toolbar={({ openAdd, params }) => ...}            // params: the list's params as last sent; controls wrapped in Permitted too
 *     exportTo={{ endpoint: '/sys/user/export', fileName: '用户列表.xlsx' }}   // 导出 (if the role holds api_export)
 *     importFrom={{ upload: '/sys/user/import', template: '/sys/user/import/template', ... }}   // 导入 (api_import)
 *   />
 *
 * - Read-only lists (logs): leave out `create` (no 新增) and `edit` (no 编辑), and `fields`;
 *   `rowKey` names the row's identifying field when it is not `id`. `detail` adds a 详情 row action
 *   opening a drawer with the row's content.
 *
 * - Field kinds: text, password, number, select (options from `dict`, or from a `useOptions` hook),
 *   switch (0/1 flag; labels from `dict`, else `switchLabels`, else 启用/禁用), textarea, timeRange
 *   (filters only: start and end picked in Asia/Shanghai, sent as the two epoch-ms params named by
 *   `range`, e.g. `range: ['from', 'to']`; the date picker loads on demand). `required`,
 *   `min`, `max`, `pattern` give Chinese validation messages; `only` limits a field to one dialog.
 *   `control` puts a screen's own input in place of the kind's (it gets id, value, onChange);
 *   `rules` (with `dependencies`) adds rules that depend on other fields; `shownWhen` shows a dialog
 *   field only while another field holds one of the given values (a channel's per-type settings).
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
 * - `sortKey` makes a column sortable by the server under that key (the list's contract keys:
 *   `ColumnConfig<Row, SortKeyOf<BodyOf<'/x/inquire'>>>`); `useInquire` holds the sort with the
 *   paging (`inquiry.sort`, `changeSort`) and `PagedTable` wires antd's sorter to it.
 * - `exportTo` downloads the list as shown (params, filters, sort); `importFrom` opens the import
 *   dialog (template, preview with per-row problems, all-or-nothing apply, one-time secrets).
 *   Both hide when the role lacks the menu's resource (`useGranted`, from the authority answer).
 * - Controls by grant: 新增 / 编辑 show only with `create.resource` / `edit.resource` (default
 *   api_creation / api_edit), 详情 with `detail.resource`; every other row or toolbar control is
 *   wrapped in `<Permitted view resource>` naming the resource guarding its endpoint.
 * - Filters live in the URL query (url-filters.ts): reload, shared links and back/forward keep them.
 * - Row actions (row-actions.tsx): two links in the row, the rest under 更多; no 操作 column when
 *   the role may do nothing with any row of the page. `minWidth` lets a wide table scroll sideways.
 * - `useMenuDict(view)` answers `optionsOf(field)` / `labelOf(field, value)` for screen-specific
 *   cells; inside `<ListScreen>` `useMenuDictContext()` gives the same without a second query.
 */
export { ListScreen } from './list-screen';
export { PagedTable, type PagedTableProps } from './paged-table';
export { FilterForm } from './filter-form';
export { DictTag } from './dict-tag';
export { ExportButton } from './export-button';
export { FormField } from './form-field';
export { RecordDialog } from './record-dialog';
export { useGranted } from './menu-grants';
export { Permitted, type PermittedProps } from './permitted';
export { NoteConfirmDialog, type NoteConfirmDialogProps } from './note-confirm-dialog';
export { stateBatchActions, type StateBatchBody } from './state-batch';
export { SAVED_MSG, savedMsg } from './messages';
export { fieldErrorsOf, showFieldErrors } from './field-errors';
export { useInquire, toParams, type Inquiry, type InquireOptions } from './use-inquire';
export { useMenuDict, useMenuDictContext, useMenuId, MENU_DICT_FAILURE_MSG, type MenuDict } from './menu-dict';
export type {
  BatchAction,
  BatchConfig,
  ColumnConfig,
  DetailConfig,
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
  TimeRange,
  SortKeyOf,
  ExportConfig,
  ImportConfig,
} from './types';
