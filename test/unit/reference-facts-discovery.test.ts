// What `npm run reference:facts` keeps of a Google discovery document (scripts/reference-facts/discovery.ts):
// the operation facts the fake contract reads, the same shape as an OpenAPI description's, none of the prose.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { reduceDiscovery } from '../../scripts/reference-facts/discovery.ts';

const REFERENCE = path.resolve(import.meta.dirname, '../reference/providers');

/** A discovery document in Drive's shape: a service path, a media download, a media upload. */
const widgets = {
  kind: 'discovery#restDescription',
  discoveryVersion: 'v1',
  id: 'widgets:v2',
  description: 'All about widgets.',
  rootUrl: 'https://www.example.test/',
  servicePath: 'widgets/v2/',
  parameters: {
    alt: { type: 'string', location: 'query', enum: ['json', 'media'], description: 'Data format.' },
    key: { type: 'string', location: 'query', description: 'API key.' },
  },
  resources: {
    widgets: {
      methods: {
        get: {
          id: 'widgets.widgets.get',
          httpMethod: 'GET',
          path: 'widgets/{widgetId}',
          description: 'Gets one.',
          parameters: {
            widgetId: { type: 'string', location: 'path', required: true, description: 'Its id.' },
            verbose: { type: 'boolean', location: 'query', default: 'false' },
          },
          response: { $ref: 'Widget' },
          scopes: ['https://www.example.test/auth/widgets.readonly'],
          supportsMediaDownload: true,
        },
        create: {
          id: 'widgets.widgets.create',
          httpMethod: 'POST',
          path: 'widgets',
          request: { $ref: 'Widget' },
          response: { $ref: 'Widget' },
          supportsMediaUpload: true,
          mediaUpload: {
            accept: ['*/*'],
            protocols: { simple: { multipart: true, path: '/upload/widgets/v2/widgets' } },
          },
        },
        delete: {
          id: 'widgets.widgets.delete',
          httpMethod: 'DELETE',
          path: 'widgets/{widgetId}',
          parameters: { widgetId: { type: 'string', location: 'path', required: true } },
        },
      },
    },
  },
  schemas: {
    Widget: {
      id: 'Widget',
      type: 'object',
      description: 'A widget.',
      properties: {
        id: { type: 'string', description: 'Its id.' },
        size: { type: 'string', format: 'int64' },
        name: { type: 'string', annotations: { required: ['widgets.widgets.create'] } },
        owner: { $ref: 'User' },
        tags: { type: 'array', items: { type: 'string' } },
        extra: { type: 'any' },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
    User: { id: 'User', type: 'object', properties: { email: { type: 'string' } } },
    Unused: { id: 'Unused', type: 'object', properties: { x: { type: 'string' } } },
  },
};

describe('reference facts: Google discovery documents', () => {
  it('keeps methods as "METHOD /path", parameters, bodies, answers and scopes, and drops the prose', () => {
    const facts = reduceDiscovery(widgets, 'providers/widgets.json');
    assert.deepEqual(facts, {
      source: 'providers/widgets.json',
      operations: {
        'GET /widgets/v2/widgets/{widgetId}': {
          id: 'widgets.widgets.get',
          parameters: { query: ['alt', 'key', 'verbose'], path: ['widgetId!'] },
          responses: { '2XX': { $ref: 'Widget' } },
          scopes: ['https://www.example.test/auth/widgets.readonly'],
          media_download: true,
        },
        'POST /widgets/v2/widgets': {
          id: 'widgets.widgets.create',
          parameters: { query: ['alt', 'key'] },
          body: {
            content: ['application/json'],
            members: ['id', 'size', 'name!', 'owner', 'tags', 'extra', 'labels'],
          },
          responses: { '2XX': { $ref: 'Widget' } },
        },
        'POST /upload/widgets/v2/widgets': {
          id: 'widgets.widgets.create',
          parameters: { query: ['alt', 'key'] },
          body: {
            content: ['multipart/related', '*/*'],
            members: ['id', 'size', 'name!', 'owner', 'tags', 'extra', 'labels'],
            open: true,
          },
          responses: { '2XX': { $ref: 'Widget' } },
        },
        'DELETE /widgets/v2/widgets/{widgetId}': {
          id: 'widgets.widgets.delete',
          parameters: { query: ['alt', 'key'], path: ['widgetId!'] },
          responses: { '2XX': {} },
        },
      },
      // Only the schemas an operation reaches; int64 is a string on the wire; `any` is untyped.
      schemas: {
        Widget: {
          type: ['object'],
          properties: {
            id: { type: ['string'] },
            size: { type: ['string'] },
            name: { type: ['string'] },
            owner: { $ref: 'User' },
            tags: { type: ['array'], items: { type: ['string'] } },
            extra: {},
            labels: { type: ['object'] },
          },
        },
        User: { type: ['object'], properties: { email: { type: ['string'] } } },
      },
    });
    assert.doesNotMatch(JSON.stringify(facts), /description|widget\./i);
  });

  it("reads Gmail's shape too: no service path, nested resources, reserved expansions", () => {
    const gmailLike = {
      kind: 'discovery#restDescription',
      rootUrl: 'https://mail.example.test/',
      servicePath: '',
      resources: {
        users: {
          methods: {
            getProfile: {
              id: 'm.users.getProfile',
              httpMethod: 'GET',
              path: 'mail/v1/users/{userId}/profile',
            },
          },
          resources: {
            messages: {
              resources: {
                attachments: {
                  methods: {
                    get: {
                      id: 'm.users.messages.attachments.get',
                      httpMethod: 'GET',
                      path: 'mail/v1/users/{userId}/messages/{messageId}/attachments/{+id}',
                      parameters: {
                        userId: { location: 'path' },
                        messageId: { location: 'path' },
                        id: { location: 'path' },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    };
    const facts = reduceDiscovery(gmailLike, 'providers/mail.json', (key) => key.includes('attachments'));
    assert.deepEqual(Object.keys(facts.operations), [
      'GET /mail/v1/users/{userId}/messages/{messageId}/attachments/{id}',
    ]);
    assert.equal(facts.subset, true);
    assert.throws(() => reduceDiscovery({ openapi: '3.1.0' }, 'x.json'), /not a Google discovery document/);
  });

  it('the committed Drive facts carry its operations (the contract of the google-drive fake)', () => {
    const facts = JSON.parse(readFileSync(path.join(REFERENCE, 'google-drive.json'), 'utf8'));
    assert.equal(facts.source, 'providers/google-drive.json');
    assert.ok(facts.operations['GET /drive/v3/files']);
    assert.equal(facts.operations['GET /drive/v3/files/{fileId}'].media_download, true);
    assert.deepEqual(facts.operations['GET /drive/v3/files/{fileId}/export'].parameters.path, ['fileId!']);
    assert.ok(facts.operations['POST /upload/drive/v3/files'].body.content.includes('multipart/related'));
  });

  it('the committed Gmail facts carry its operations (the contract of the gmail fake)', () => {
    const facts = JSON.parse(readFileSync(path.join(REFERENCE, 'gmail.json'), 'utf8'));
    assert.equal(facts.source, 'providers/gmail.json');
    assert.equal(facts.operations['GET /gmail/v1/users/{userId}/profile'].id, 'gmail.users.getProfile');
    assert.deepEqual(
      facts.operations['GET /gmail/v1/users/{userId}/messages/{messageId}/attachments/{id}'].parameters.path,
      ['id!', 'messageId!', 'userId!'],
    );
    assert.ok(
      facts.operations['POST /gmail/v1/users/{userId}/messages/{id}/modify'].scopes.includes(
        'https://www.googleapis.com/auth/gmail.modify',
      ),
    );
  });
});
