// Google Drive cases of the definition-driven suite, over the fake's seeded Drive (fake/dataset.ts): ids are
// read from the dataset. Every refusal is the fake's own answer as Google gives it (404 notFound, 400 invalid,
// 403 fileNotDownloadable, 403 exportSizeLimitExceeded), so no fault is injected.
import type { Cases } from '../suite/types.ts';
import { type Dataset, FOLDER } from './fake/dataset.ts';

/** An id with Drive's look that names nothing. */
export const MISSING_ID = '1MissingMissingMissingMissingMiss';

const notFound = 'UPSTREAM_NOT_FOUND' as const;

export function driveCases(data: Dataset): Cases {
  const files = [...data.files.values()];
  const folders = files.filter((f) => f.mimeType === FOLDER);
  const texts = files.filter((f) => f.mimeType === 'text/plain');
  const photo = files.find((f) => f.mimeType === 'image/png');
  const [first, second] = folders;
  const [readable, renamed, doomed] = texts;
  const comment = data.comments[0];
  if (!first || !second || !readable || !renamed || !doomed || !photo || !comment)
    throw new Error('the Drive fake seeded too few folders, files or comments');
  const drive = data.drives[0] as { id: string };
  const revision = data.revisions.find((r) => r.fileId === photo.id) as { id: string };
  const reply = comment.replies[0] as { id: string };
  return {
    'about.get': { happy: {}, error: { params: { fields: 'user(' }, code: 'INVALID_PARAMS' } },
    // 46 seeded changes, ten a page.
    'changes.list': {
      happy: { pageToken: '1', pageSize: 10 },
      error: { params: { pageToken: '999999' }, code: 'INVALID_PARAMS' },
    },
    'changes_start_page_token.get': { happy: {}, error: { params: { driveId: MISSING_ID }, code: notFound } },
    // 25 comments on the first document.
    'comments.list': {
      happy: { fileId: data.docId, pageSize: 10 },
      error: { params: { fileId: MISSING_ID }, code: notFound },
    },
    'comments.get': {
      happy: { fileId: data.docId, commentId: comment.id },
      error: { params: { fileId: data.docId, commentId: 'AAAAmissing' }, code: notFound },
    },
    // 12 shared drives.
    'drives.list': {
      happy: { pageSize: 5 },
      error: { params: { q: 'owner is me' }, code: 'INVALID_PARAMS' },
    },
    'drives.get': {
      happy: { driveId: drive.id },
      error: { params: { driveId: MISSING_ID }, code: notFound },
    },
    // 46 files (and what the suite creates).
    'files.list': {
      happy: { pageSize: 20, orderBy: 'createdTime' },
      error: { params: { q: 'sharedWithMe and starred' }, code: 'INVALID_PARAMS' },
    },
    'files.get': {
      happy: { fileId: readable.id, fields: '*' },
      error: { params: { fileId: MISSING_ID }, code: notFound },
    },
    'files.create': {
      happy: { name: 'Written by the suite', mimeType: FOLDER, parents: [first.id] },
      error: { params: { name: 'Lost', parents: [MISSING_ID] }, code: notFound },
    },
    'files_upload.create': {
      happy: {
        name: 'notes.txt',
        parents: [first.id],
        content: Buffer.from('Uploaded by the suite.\n').toString('base64'),
        content_type: 'text/plain',
      },
      error: {
        params: { name: 'Lost', parents: [MISSING_ID], content: 'eA==', content_type: 'text/plain' },
        code: notFound,
      },
    },
    'files.update': {
      happy: {
        fileId: renamed.id,
        name: 'renamed.txt',
        addParents: second.id,
        removeParents: renamed.parents[0],
      },
      error: { params: { fileId: MISSING_ID, name: 'x' }, code: notFound },
    },
    'files.delete': {
      happy: { fileId: doomed.id },
      error: { params: { fileId: MISSING_ID }, code: notFound },
      no_content: 'Google answers files.delete 204 without a body',
    },
    'files.download': {
      happy: { fileId: photo.id },
      // A Google Doc has no binary content: 403 fileNotDownloadable.
      error: { params: { fileId: data.docId }, code: 'UPSTREAM_FORBIDDEN' },
    },
    'files_export.download': {
      happy: { fileId: data.docId, mimeType: 'application/pdf' },
      // Over Google's 10 MB export cap: 403 exportSizeLimitExceeded.
      error: { params: { fileId: data.hugeDocId, mimeType: 'text/plain' }, code: 'INVALID_PARAMS' },
    },
    // Six permissions on the first document.
    'permissions.list': {
      happy: { fileId: data.docId, pageSize: 2 },
      error: { params: { fileId: MISSING_ID }, code: notFound },
    },
    'permissions.get': {
      happy: { fileId: data.docId, permissionId: data.colleague.permissionId },
      error: { params: { fileId: data.docId, permissionId: '999' }, code: notFound },
    },
    // Seven replies to the first comment.
    'replies.list': {
      happy: { fileId: data.docId, commentId: comment.id, pageSize: 3 },
      error: { params: { fileId: data.docId, commentId: 'AAAAmissing' }, code: notFound },
    },
    'replies.get': {
      happy: { fileId: data.docId, commentId: comment.id, replyId: reply.id },
      error: {
        params: { fileId: data.docId, commentId: comment.id, replyId: 'AAAAmissing' },
        code: notFound,
      },
    },
    // Four revisions of each plain file.
    'revisions.list': {
      happy: { fileId: photo.id, pageSize: 3 },
      error: { params: { fileId: MISSING_ID }, code: notFound },
    },
    'revisions.get': {
      happy: { fileId: photo.id, revisionId: revision.id },
      error: { params: { fileId: photo.id, revisionId: 'missing' }, code: notFound },
    },
  };
}
