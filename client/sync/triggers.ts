/** What the page tells the engine: signal came and went, the page came back in front of the driver. */
export interface TriggerHandlers {
  online(): void;
  offline(): void;
  visible(): void;
}

interface PageLike {
  addEventListener?: (t: string, f: () => void) => void;
  removeEventListener?: (t: string, f: () => void) => void;
  document?: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>;
}

/** Listens where there is a page (none in Node); answers the function that stops listening. */
export function listenForTriggers(on: TriggerHandlers, page: PageLike = globalThis as PageLike): () => void {
  const cleanups: (() => void)[] = [];
  const onOnline = () => on.online();
  const onOffline = () => on.offline();
  if (page.addEventListener && page.removeEventListener) {
    const add = page.addEventListener.bind(page);
    const remove = page.removeEventListener.bind(page);
    add('online', onOnline);
    add('offline', onOffline);
    cleanups.push(() => {
      remove('online', onOnline);
      remove('offline', onOffline);
    });
  }
  const doc = page.document;
  if (doc) {
    // Back in front of the driver: send now rather than at the back-off timer.
    const onVisible = () => {
      if (doc.visibilityState === 'visible') on.visible();
    };
    doc.addEventListener('visibilitychange', onVisible);
    cleanups.push(() => doc.removeEventListener('visibilitychange', onVisible));
  }
  return () => cleanups.splice(0).forEach((f) => f());
}
