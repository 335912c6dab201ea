/**
 * 接口文档 (issue 13): the server's OpenAPI document, grouped by area / menu, searchable, each
 * operation with its authentication, request fields (required or not, rules) and answer schema.
 */
import { within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';

import ApiDocsScreen from '../../../src/client/features/monitor/api-docs';
import { api, fail } from '../testing/handlers';
import { renderScreen, screen } from '../testing/render-screen';
import { server } from '../testing/server';

jest.setTimeout(120_000);
const user = userEvent.setup({ delay: null });

const envelope = (data: object) => ({ type: 'object', properties: { code: { type: 'integer' }, msg: { type: 'string' }, data } });
const openApi = {
  openapi: '3.1.0',
  info: { title: '酒店后台管理系统 API', version: '1', description: '所有 JSON 接口都以信封应答。' },
  paths: {
    '/api/sys/user/creation': {
      post: {
        summary: '新增用户',
        tags: ['系统管理 / 用户管理'],
        security: [{ staffToken: [] }],
        description: '应答 code：200 成功；400 参数错误',
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['userName', 'state'],
                properties: {
                  userName: { type: 'string', title: '用户名', minLength: 3, maxLength: 32 },
                  state: { type: 'integer', title: '状态', minimum: 0, maximum: 1 },
                  roleId: { anyOf: [{ type: 'integer' }, { type: 'null' }], title: '角色', default: null },
                },
              },
            },
          },
        },
        responses: { '200': { content: { 'application/json': { schema: envelope({ type: 'object', properties: { id: { type: 'integer' } } }) } } } },
      },
    },
    '/api/hotel/device/heartbeat': {
      post: { summary: '设备心跳（设备密钥认证）', tags: ['设备接入'], security: [{ deviceKey: [] }], responses: {} },
    },
    '/api/healthz': { get: { summary: '存活检查（负载均衡用）', tags: ['运维'], security: [], responses: {} } },
  },
};

let requests: Array<string | null> = [];
beforeEach(() => {
  requests = [];
  server.use(
    http.get(api('/openapi.json'), ({ request }) => {
      requests.push(request.headers.get('authorization'));
      return HttpResponse.json(openApi);
    }),
  );
});

describe('monitor/api-docs', () => {
  it('fetches the document with the staff token and groups the operations by area and menu', async () => {
    renderScreen(ApiDocsScreen);
    const users = await screen.findByRole('region', { name: '系统管理 / 用户管理' });
    expect(within(users).getByText('/api/sys/user/creation')).toBeInTheDocument();
    expect(within(users).getByText('新增用户')).toBeInTheDocument();
    expect(within(users).getByText('POST')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: '设备接入' })).toHaveTextContent('设备心跳');
    expect(screen.getByRole('region', { name: '运维' })).toHaveTextContent('GET');
    expect(screen.getByText('共 3 个接口')).toBeInTheDocument();
    expect(requests[0]).toMatch(/^Bearer /);
  });

  it('shows an operation’s authentication, fields with required flags and rules, and its answer', async () => {
    renderScreen(ApiDocsScreen);
    await user.click(await screen.findByText('新增用户'));
    const userName = await screen.findByRole('row', { name: /userName/ });
    expect(userName).toHaveTextContent('string');
    expect(userName).toHaveTextContent('是');
    expect(userName).toHaveTextContent('长度 ≥ 3，长度 ≤ 32');
    const roleId = screen.getByRole('row', { name: /roleId/ });
    expect(roleId).toHaveTextContent('integer | null');
    expect(roleId).toHaveTextContent('否');
    expect(roleId).toHaveTextContent('默认 null');
    expect(screen.getByText('员工令牌')).toBeInTheDocument();
    expect(screen.getByText(/"id"/)).toBeInTheDocument();
  });

  it('narrows the list by path or name', async () => {
    renderScreen(ApiDocsScreen);
    await screen.findByText('新增用户');
    await user.type(screen.getByRole('searchbox', { name: '搜索接口' }), '心跳');
    expect(await screen.findByText('共 1 个接口')).toBeInTheDocument();
    expect(screen.queryByText('新增用户')).toBeNull();
    await user.clear(screen.getByRole('searchbox', { name: '搜索接口' }));
    await user.type(screen.getByRole('searchbox', { name: '搜索接口' }), '/api/healthz');
    expect(await screen.findByText('共 1 个接口')).toBeInTheDocument();
    expect(screen.getByText('存活检查（负载均衡用）')).toBeInTheDocument();
  });

  it('says so when the document cannot be read', async () => {
    server.use(http.get(api('/openapi.json'), () => fail(500, '服务器内部错误，请稍后重试')));
    renderScreen(ApiDocsScreen);
    expect(await screen.findByText('接口文档加载失败')).toBeInTheDocument();
  });
});
