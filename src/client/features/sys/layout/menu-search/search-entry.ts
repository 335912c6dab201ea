/** A screen the menu search can open. */
export interface SearchEntry {
  key: string;
  path: string;
  name: string;
  /** Its parents' names, e.g. 系统管理. */
  trail: string;
}
