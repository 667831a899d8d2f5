import { newFeedCells } from '@adloom/engine';
import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Combiner } from '../../combiner/Combiner.tsx';
import { runChunkTask } from '../chunkTask.ts';
import { FeedGrid } from '../FeedGrid.tsx';
import { FeedStore } from '../feedStore.ts';
import '../../../styles/utilities.css';
import './harness.css';

// A page with only the feed grid and the combiner, for browser tests and the benchmark.
// window.__harness exposes the store and timing helpers; longtask entries are collected.

interface HarnessApi {
  store: FeedStore;
  loadSample(rowCount: number): Promise<number>;
  longTasks: PerformanceEntry[];
  resetLongTasks(): void;
  maxLongTask(): number;
  nextPaint(): Promise<void>;
  waitForStatus(text: string): Promise<number>;
}

declare global {
  interface Window {
    __harness: HarnessApi;
  }
}

const store = new FeedStore();
store.load([newFeedCells()]);
store.clearHistory();

const longTasks: PerformanceEntry[] = [];
try {
  new PerformanceObserver((list) => longTasks.push(...list.getEntries())).observe({
    type: 'longtask',
    buffered: true,
  });
} catch {
  // longtask entries are a Chromium feature; elsewhere the list stays empty.
}

const nextPaint = () =>
  new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

async function loadSample(rowCount: number): Promise<number> {
  const started = performance.now();
  const worker = new Worker(new URL('./sample.worker.ts', import.meta.url), {
    type: 'module',
    name: 'sample',
  });
  store.reset();
  const bulk = store.beginBulkAppend();
  await runChunkTask<number, number>(worker, rowCount, {
    onChunk: (chunk) => bulk.addChunk(chunk),
  });
  bulk.commit();
  store.clearHistory();
  await nextPaint();
  return performance.now() - started;
}

/** Resolves with the milliseconds until a status region shows `text` (and the frame after it). */
function waitForStatus(text: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    const check = () => {
      const regions = document.querySelectorAll('[role="status"], [role="alert"]');
      if ([...regions].some((element) => element.textContent?.includes(text))) {
        void nextPaint().then(() => resolve(performance.now() - started));
      } else {
        requestAnimationFrame(check);
      }
    };
    check();
  });
}

window.__harness = {
  waitForStatus,
  store,
  loadSample,
  longTasks,
  resetLongTasks: () => void (longTasks.length = 0),
  maxLongTask: () => longTasks.reduce((max, entry) => Math.max(max, entry.duration), 0),
  nextPaint,
};

function Harness() {
  const [sampleRows, setSampleRows] = useState('100000');
  const [loadMessage, setLoadMessage] = useState('');
  return (
    <main className="harness">
      <header className="harness__header">
        <h1>Data Table</h1>
        <div className="harness__sample">
          <label htmlFor="sample-rows">Sample rows</label>
          <input
            id="sample-rows"
            inputMode="numeric"
            value={sampleRows}
            onChange={(event) => setSampleRows(event.target.value)}
          />
          <button
            type="button"
            onClick={async () => {
              setLoadMessage('Loading…');
              const ms = await loadSample(Number(sampleRows.replace(/\D/g, '')) || 0);
              setLoadMessage(`Loaded in ${Math.round(ms)} ms`);
            }}
          >
            Load sample rows
          </button>
          <span className="harness__message">{loadMessage}</span>
        </div>
      </header>
      <FeedGrid store={store} label="Feed rows" />
      <h2 className="harness__subheading">Seeds</h2>
      <Combiner store={store} />
    </main>
  );
}

// The grid's column mapping dialog is a Mantine modal.
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider>
      <Harness />
    </MantineProvider>
  </StrictMode>,
);
