/**
 * Setting up data through the product's own API (faster and steadier than clicking through
 * dialogs that are not under test). Types come from the shared contract, so a changed field breaks
 * the suite at compile time rather than at run time.
 */
import type { APIRequestContext } from '@playwright/test';

import type { BodyOf, DataOf, EndpointKey, Envelope } from '../../../src/contract';
import { ADMIN_PASSWORD, ADMIN_USER } from './env';

/** Short and unique per run and per call, so tests never clash on unique names in the shared database. */
let counter = 0;
export function uniq(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36).slice(-5)}${counter}`;
}

export class Api {
  constructor(
    private readonly request: APIRequestContext,
    readonly token?: string,
  ) {}

  /** The raw envelope, whatever its code: for tests that expect a refusal. */
  async call<K extends EndpointKey>(key: K, body?: BodyOf<K> | Record<string, unknown> | null, token = this.token): Promise<Envelope<DataOf<K>>> {
    const isGet = key.startsWith('GET ');
    const url = `/api${key.replace(/^GET /, '')}`;
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const response = isGet
      ? await this.request.get(url, { headers, params: (body ?? {}) as Record<string, string | number> })
      : await this.request.post(url, { headers, data: body ?? {} });
    if (response.status() !== 200) throw new Error(`${key}: HTTP ${response.status()} ${await response.text()}`);
    // UTF-8 whatever the headers say: error answers have come without a Content-Type.
    return JSON.parse((await response.body()).toString('utf8')) as Envelope<DataOf<K>>;
  }

  /** The data of a call that must succeed; anything else fails the test with the server's msg. */
  async ok<K extends EndpointKey>(key: K, body?: BodyOf<K> | Record<string, unknown> | null): Promise<DataOf<K>> {
    const answer = await this.call(key, body);
    if (answer.code !== 200) throw new Error(`${key} answered ${answer.code} ${answer.msg} for ${JSON.stringify(body)}`);
    return answer.data;
  }

  static async login(request: APIRequestContext, userName = ADMIN_USER, password = ADMIN_PASSWORD): Promise<Api> {
    const answer = await new Api(request).call('/sys/user/verify', { userName, password });
    if (answer.code !== 200) throw new Error(`login ${userName}: ${answer.code} ${answer.msg}`);
    return new Api(request, answer.data.token);
  }

  /**
   * Creates an enabled role with the given grants and a user in it; answers their credentials. The
   * role sees every row unless `scope` narrows it; the user sits in `orgId` (default: the caller's unit).
   */
  async createRoleWithUser(
    grants: BodyOf<'/sys/role/auth'>['grant'],
    { dataScope, orgId }: { dataScope?: BodyOf<'/sys/role/creation'>['dataScope']; orgId?: number } = {},
  ): Promise<{ roleId: number; userName: string; password: string }> {
    const role = await this.ok('/sys/role/creation', { name: uniq('角色'), remark: 'e2e', state: 1, ...(dataScope ? { dataScope } : {}) });
    await this.ok('/sys/role/auth', { roleId: role.id, grant: grants, revoke: [] });
    const userName = uniq('e2e_');
    const password = 'Str0ng-Pass-e2e';
    await this.ok('/sys/user/creation', { userName, nickName: `测试${userName.slice(-4)}`, password, state: 1, roleId: role.id, ...(orgId ? { orgId } : {}) });
    return { roleId: role.id, userName, password };
  }

  /** Grants of whole screens: each menu named by its element, with every resource under it. */
  async screenGrants(elements: string[]): Promise<BodyOf<'/sys/role/auth'>['grant']> {
    const menus = await this.menusWithResources();
    return elements.flatMap((element) => {
      const menu = menus.find((candidate) => candidate.element === element);
      if (!menu) throw new Error(`no seeded menu ${element}`);
      return [{ type: 'menu' as const, resource: menu.id }, ...menu.resources.map((resource) => ({ type: 'resource' as const, resource: resource.id }))];
    });
  }

  /** Every menu with its resources (all pages), as the role screen's permission dialog sees them. */
  async menusWithResources(): Promise<DataOf<'/sys/menu/resources'>['records']> {
    const all: DataOf<'/sys/menu/resources'>['records'] = [];
    for (let current = 1; ; current += 1) {
      const page = await this.ok('/sys/menu/resources', { size: 100, current });
      all.push(...page.records);
      if (all.length >= page.total || page.records.length === 0) return all;
    }
  }
}
