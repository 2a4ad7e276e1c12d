import type { App, AppDeps } from '../app-types.ts';
import * as scopedToken from './account/scoped-token.ts';
import * as scopedTokenInfo from './account/scoped-token-info.ts';
import * as token from './account/token.ts';
import * as widgetToken from './account/widget-token.ts';
import * as connectApi from './connect/api.ts';
import * as connectPage from './connect/page.ts';
import * as checkConnector from './connectors/check.ts';
import * as createConnector from './connectors/create.ts';
import * as deleteConnector from './connectors/delete.ts';
import * as downloadLink from './connectors/download-link.ts';
import * as execute from './connectors/execute.ts';
import * as getConnector from './connectors/get.ts';
import * as inspectConnector from './connectors/inspect.ts';
import * as listConnectors from './connectors/list.ts';
import * as updateConnector from './connectors/update.ts';
import * as getDefinition from './definitions/get.ts';
import * as listDefinitions from './definitions/list.ts';
import * as mcp from './mcp.ts';
import * as oauthConsent from './oauth/consent.ts';
import * as oauthCredentials from './oauth/credentials.ts';
import * as health from './ops/health.ts';
import * as organizationCredentials from './organizations/credentials.ts';
import * as skillDocs from './skills/docs.ts';
import * as listSkills from './skills/list.ts';
import * as searchSkills from './skills/search.ts';
import * as sourceTemplates from './templates/sources.ts';
import * as deleteWorkspace from './workspaces/delete.ts';
import * as getWorkspace from './workspaces/get.ts';
import * as listWorkspaces from './workspaces/list.ts';
import * as workspaceStats from './workspaces/stats.ts';
import * as updateWorkspace from './workspaces/update.ts';

const ROUTES: Array<{ register: (app: App, deps: AppDeps) => void }> = [
  health,
  token,
  scopedToken,
  scopedTokenInfo,
  widgetToken,
  listDefinitions,
  getDefinition,
  checkConnector,
  createConnector,
  listConnectors,
  getConnector,
  inspectConnector,
  organizationCredentials,
  updateConnector,
  deleteConnector,
  execute,
  downloadLink,
  mcp,
  sourceTemplates,
  oauthCredentials,
  oauthConsent,
  connectApi,
  connectPage,
  listWorkspaces,
  workspaceStats,
  getWorkspace,
  updateWorkspace,
  deleteWorkspace,
  listSkills,
  searchSkills,
  skillDocs,
];

export function registerRoutes(app: App, deps: AppDeps): void {
  for (const route of ROUTES) route.register(app, deps);
}
