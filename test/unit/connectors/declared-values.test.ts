// Values a definition gives itself must pass the checks a client's value would: a fixed sync param, a default
// sent on every request, a base URL variable's default. Before these load checks such a definition loaded and
// then failed every sync (or every call) with INVALID_PARAMS; now the load names the file and the JSON pointer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDefinition } from '../../../src/connectors/load.ts';

const definition = (v: { sync?: string; sent?: string; region?: string } = {}) => `
id: 0b6d7f7e-3333-4c1a-9d8e-2f0c5a1b2c3d
slug: tickets-co
name: TicketsCo
icon_url: https://tickets.example/icon.svg
support_level: community
documentation_url: https://tickets.example/docs
base_url: "https://{region}.tickets.example/v1"
base_url_variables:
  region: { description: The account's region., default: "${v.region ?? 'eu'}", pattern: "^(eu|us)$" }
credential_options:
  - title: Token
    description: A token.
    fields: { token: { type: string, title: Token, description: The token., secret: true } }
    required: [token]
    auth: { type: bearer, token: "{token}" }
check: { method: GET, path: /me }
replication_config: { type: object, properties: { region: { type: string } } }
entities:
  - name: tickets
    description: Tickets.
    primary_key: [id]
    actions:
      list:
        description: Tickets, by status.
        params:
          status: { type: string, pattern: "^(open|closed|all)$", description: Which tickets. }
          api_version: { type: string, in: header, pattern: "^\\\\d{4}-\\\\d{2}$", default: "${v.sent ?? '2024-05'}", send_default: true, description: API version. }
          per_page: { type: integer, minimum: 1, maximum: 100, description: Page size. }
        request: { method: GET, path: /tickets }
        record_selector: [tickets]
        pagination: { type: body_cursor, cursor_path: [next], param: cursor }
    context_store:
      params: { status: "${v.sync ?? 'all'}", per_page: 100 }
      fields: [{ name: id, type: integer }]
`;

function loadError(text: string): string {
  try {
    parseDefinition(text, 'tickets-co.yaml');
  } catch (err) {
    return (err as Error).message;
  }
  return '';
}

describe('values a definition declares for itself', () => {
  it('a definition whose own values pass its checks loads', () => {
    assert.equal(loadError(definition()), '');
  });

  it('a sync param that breaks its own pattern is a load error naming the file and the pointer', () => {
    assert.equal(
      loadError(definition({ sync: 'every' })),
      `tickets-co.yaml: /entities/0/context_store/params/status: "every" would fail every sync request: 'status' must match ^(open|closed|all)$`,
    );
  });

  it('a default sent on every request that breaks its own pattern is one too', () => {
    assert.equal(
      loadError(definition({ sent: '2024-5' })),
      `tickets-co.yaml: /entities/0/actions/list/params/api_version/default: is sent on every request but fails its own check: 'api_version' must match ^\\d{4}-\\d{2}$`,
    );
  });

  it("a base URL variable's default that breaks its pattern is one too", () => {
    assert.equal(
      loadError(definition({ region: 'ap' })),
      "tickets-co.yaml: /base_url_variables/region/default: does not match the variable's pattern ^(eu|us)$",
    );
  });
});
