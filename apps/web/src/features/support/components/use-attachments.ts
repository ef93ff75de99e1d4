import type { SupportAttachment } from '@cellport/shared/schemas/support';
import { useCallback, useEffect, useRef, useState } from 'react';
import { uploadAttachment, type UploadScope } from '../api/upload-attachment';
import { checkAttachments, pastedFileName, type AttachmentProblem } from '../lib/attachment-check';

/** One screenshot of the message being written: its preview, how far its upload got, and what came back. */
export interface PendingAttachment {
  key: string;
  name: string;
  size: number;
  /** A data: URL of the image (the Content-Security-Policy allows data: images, not blob:). */
  preview: string | null;
  progress: number;
  attachment: SupportAttachment | null;
  error: unknown;
}

export interface RefusedFile { name: string; problem: AttachmentProblem }

export interface AttachmentsState {
  items: PendingAttachment[];
  /** Files refused by the checks at the last pick or paste, with why. */
  refused: RefusedFile[];
  /** Whether any upload is still running. */
  busy: boolean;
  /** Ids of the finished uploads, for the message. */
  ids: string[];
  add: (files: readonly File[]) => void;
  remove: (key: string) => void;
  clear: () => void;
  /** For the message box: a pasted image (a screenshot from the clipboard) is attached like a picked file. */
  onPaste: (event: React.ClipboardEvent) => void;
}

let sequence = 0;
const readPreview = (file: File) => new Promise<string | null>((resolve) => {
  const reader = new FileReader();
  reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : null);
  reader.onerror = () => resolve(null);
  reader.readAsDataURL(file);
});

/** The screenshots of one message: checked before upload, uploaded at once with progress, removable until sent. */
export function useAttachments(scope: UploadScope): AttachmentsState {
  const [items, setItems] = useState<PendingAttachment[]>([]);
  const [refused, setRefused] = useState<RefusedFile[]>([]);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const alive = useRef(true);
  useEffect(() => { alive.current = true; return () => { alive.current = false; }; }, []);

  const patch = useCallback((key: string, change: Partial<PendingAttachment>) => {
    if (alive.current) setItems((list) => list.map((item) => (item.key === key ? { ...item, ...change } : item)));
  }, []);

  const add = useCallback((files: readonly File[]) => {
    const { accepted, rejected } = checkAttachments(files, itemsRef.current.length);
    setRefused(rejected.map(({ file, problem }) => ({ name: file.name, problem })));
    const added = accepted.map((file) => ({ file, key: `a${++sequence}` }));
    if (!added.length) return;
    const fresh = added.map(({ file, key }): PendingAttachment =>
      ({ key, name: file.name, size: file.size, preview: null, progress: 0, attachment: null, error: null }));
    itemsRef.current = [...itemsRef.current, ...fresh];
    setItems((list) => [...list, ...fresh]);
    for (const { file, key } of added) {
      void readPreview(file).then((preview) => patch(key, { preview }));
      uploadAttachment(scope, file, (progress) => patch(key, { progress }))
        .then((attachment) => patch(key, { attachment, progress: 1 }))
        .catch((error: unknown) => patch(key, { error }));
    }
  }, [scope, patch]);

  const onPaste = useCallback((event: React.ClipboardEvent) => {
    const files = [...event.clipboardData.items]
      .filter((item) => item.kind === 'file')
      .map((item) => item.getAsFile())
      .filter((file): file is File => file !== null);
    if (!files.length) return;
    event.preventDefault();
    const now = new Date();
    add(files.map((file) => new File([file], pastedFileName(file.type, now), { type: file.type })));
  }, [add]);

  const remove = useCallback((key: string) => {
    itemsRef.current = itemsRef.current.filter((item) => item.key !== key);
    setItems((list) => list.filter((item) => item.key !== key));
  }, []);
  const clear = useCallback(() => { itemsRef.current = []; setItems([]); setRefused([]); }, []);

  return {
    items,
    refused,
    busy: items.some((item) => !item.attachment && !item.error),
    ids: items.flatMap((item) => (item.attachment ? [item.attachment._id] : [])),
    add,
    remove,
    clear,
    onPaste,
  };
}
