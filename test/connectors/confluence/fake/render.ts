// Records as Confluence renders them: v2's PageBulk/PageSingle, BlogPostBulk/Single, SpaceBulk/Single and
// AttachmentSingle (with `_links`, and `_links.base` on a single record), v1's Group, AuditRecord and User.
import type {
  AttachmentRec,
  AuditRec,
  ContentRec,
  Dataset,
  GroupRec,
  SpaceRec,
  UserRec,
  VersionRec,
} from './dataset.ts';
import { iso, V1 } from './wire.ts';

export interface Site {
  /** the fake's origin, known once it listens */
  origin: string;
}

export type BodyFormat = 'storage' | 'atlas_doc_format' | 'view' | string;

export class Renderer {
  constructor(
    private readonly data: Dataset,
    private readonly site: Site,
  ) {}

  /** `_links.base`: the site's Confluence root. */
  base(): string {
    return `${this.site.origin}/wiki`;
  }

  version(v: VersionRec) {
    return {
      createdAt: iso(v.createdAt),
      message: v.message,
      number: v.number,
      minorEdit: v.minorEdit,
      authorId: v.authorId,
    };
  }

  body(rec: ContentRec, format: BodyFormat | null) {
    if (format === null) return {};
    if (format === 'atlas_doc_format') {
      const text = rec.storage.replace(/<[^>]+>/g, '');
      const doc = {
        type: 'doc',
        version: 1,
        content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
      };
      return { atlas_doc_format: { representation: 'atlas_doc_format', value: JSON.stringify(doc) } };
    }
    if (format === 'storage') return { storage: { representation: 'storage', value: rec.storage } };
    return { [format]: { representation: format, value: rec.storage } };
  }

  content(rec: ContentRec, format: BodyFormat | null, single: boolean) {
    const space = this.data.space(rec.spaceId);
    const path = rec.kind === 'page' ? 'pages' : 'blog';
    const webui = `/spaces/${space?.key ?? ''}/${path}/${rec.id}/${encodeURIComponent(rec.title.replace(/ /g, '+'))}`;
    const page =
      rec.kind === 'page'
        ? {
            // A homepage has no parent: the members are left out (the description types them as strings).
            ...(rec.parentId === null ? {} : { parentId: rec.parentId, parentType: 'page' }),
            position: null,
            ownerId: rec.ownerId,
            lastOwnerId: null,
          }
        : {};
    return {
      id: rec.id,
      status: rec.status,
      title: rec.title,
      spaceId: rec.spaceId,
      ...page,
      authorId: rec.authorId,
      createdAt: iso(rec.createdAt),
      version: this.version(rec.version),
      body: this.body(rec, format),
      _links: {
        webui,
        editui: `/pages/resumedraft.action?draftId=${rec.id}`,
        tinyui: `/x/${Buffer.from(rec.id).toString('base64url')}`,
        ...(single ? { base: this.base() } : {}),
      },
    };
  }

  space(rec: SpaceRec, descriptionFormat: string | null, single: boolean) {
    return {
      id: rec.id,
      key: rec.key,
      name: rec.name,
      type: rec.type,
      status: rec.status,
      authorId: rec.authorId,
      createdAt: iso(rec.createdAt),
      homepageId: rec.homepageId,
      // Only with description-format (the description types it as an object, never null).
      ...(descriptionFormat === null
        ? {}
        : {
            description: {
              [descriptionFormat]: {
                representation: descriptionFormat,
                value: descriptionFormat === 'view' ? `<p>${rec.description}</p>` : rec.description,
              },
            },
          }),
      _links: { webui: `/spaces/${rec.key}`, ...(single ? { base: this.base() } : {}) },
    };
  }

  downloadLink(rec: AttachmentRec): string {
    const q = new URLSearchParams({
      version: String(rec.version.number),
      modificationDate: String(rec.version.createdAt),
      cacheVersion: '1',
      api: 'v2',
    });
    return `/download/attachments/${rec.pageId}/${encodeURIComponent(rec.title)}?${q}`;
  }

  attachment(rec: AttachmentRec) {
    const webuiLink = `/pages/viewpageattachments.action?pageId=${rec.pageId}&preview=${encodeURIComponent(`/${rec.pageId}/${rec.title}`)}`;
    const downloadLink = this.downloadLink(rec);
    return {
      id: rec.id,
      status: 'current',
      title: rec.title,
      createdAt: iso(rec.createdAt),
      pageId: rec.pageId,
      mediaType: rec.mediaType,
      mediaTypeDescription: rec.mediaType.split('/')[1]?.toUpperCase() ?? rec.mediaType,
      comment: rec.comment,
      fileId: rec.fileId,
      fileSize: rec.bytes.length,
      webuiLink,
      downloadLink,
      version: this.version(rec.version),
      _links: { webui: webuiLink, download: downloadLink, base: this.base() },
    };
  }

  group(rec: GroupRec) {
    return {
      type: 'group',
      name: rec.name,
      id: rec.id,
      _links: { self: `${this.base()}${V1.slice('/wiki'.length)}/group/by-id?id=${rec.id}` },
    };
  }

  auditAuthor(accountId: string) {
    const user = this.data.user(accountId);
    return {
      type: 'user',
      displayName: user?.displayName ?? 'Unknown',
      operations: null,
      accountId,
      accountType: 'atlassian',
      externalCollaborator: false,
      isExternalCollaborator: false,
      publicName: user?.displayName ?? 'Unknown',
    };
  }

  audit(rec: AuditRec) {
    return {
      author: this.auditAuthor(rec.authorId),
      remoteAddress: rec.remoteAddress,
      creationDate: rec.creationDate,
      summary: rec.summary,
      description: rec.description,
      category: rec.category,
      sysAdmin: false,
      superAdmin: false,
      affectedObject: rec.object,
      changedValues: rec.changed,
      associatedObjects: [],
    };
  }

  currentUser(user: UserRec) {
    return {
      type: 'known',
      accountId: user.accountId,
      accountType: 'atlassian',
      email: user.email,
      publicName: user.displayName,
      profilePicture: { path: `/wiki/aa-avatar/${user.accountId}`, width: 48, height: 48, isDefault: true },
      displayName: user.displayName,
      timeZone: 'Etc/UTC',
      isExternalCollaborator: false,
      externalCollaborator: false,
      _expandable: { operations: '', personalSpace: '' },
      _links: {
        self: `${this.base()}/rest/api/user?accountId=${user.accountId}`,
        base: this.base(),
        context: '/wiki',
      },
    };
  }
}
