/**
 * The log file browser of the build page (docs/dashboard.md#log-file-browser): the manifest's
 * tree with folders that open and close, plain-text files shown in the page at
 * `/t/{tenant}/build/{uuid}/log/{path}` (the reference dashboard's path, so the link can be
 * shared), other files linked raw on the log server.
 */
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { ErrorBox, Loading } from '../components/common';
import { tenantPath } from '../url';
import {
  ancestors,
  entryUrl,
  findEntry,
  formatSize,
  parseManifest,
  viewable,
  type LogEntry,
  type LogManifest,
} from './manifest';
import { useFetched } from './fetched';

async function readManifest(response: Response): Promise<LogManifest> {
  const manifest = parseManifest(await response.json());
  if (manifest instanceof Error) {
    throw manifest;
  }
  return manifest;
}

const readText = (response: Response): Promise<string> => response.text();

interface BrowserProps {
  tenant: string;
  uuid: string;
  /** The build's log URL, absolute, ending with `/`. */
  logUrl: string;
  manifestUrl: string;
  /** The file or folder the URL opens, or null. */
  openPath: string | null;
}

export function LogBrowser({ tenant, uuid, logUrl, manifestUrl, openPath }: BrowserProps) {
  const manifest = useFetched(manifestUrl, readManifest);
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set(openPath === null ? [] : ancestors(openPath)));
  useEffect(() => {
    if (openPath !== null) {
      setOpen((previous) => new Set([...previous, ...ancestors(openPath), openPath]));
    }
  }, [openPath]);
  const toggle = (path: string): void =>
    setOpen((previous) => {
      const next = new Set(previous);
      if (!next.delete(path)) {
        next.add(path);
      }
      return next;
    });

  return (
    <section className="log-browser" aria-labelledby="log-files">
      <h2 id="log-files">Log files</h2>
      {manifest === undefined && <Loading what="the log manifest" />}
      {manifest !== undefined && 'error' in manifest && (
        <ErrorBox title="The log manifest could not be read" error={manifest.error} />
      )}
      {manifest !== undefined && 'value' in manifest && (
        <>
          <Tree
            entries={manifest.value.tree}
            open={open}
            toggle={toggle}
            selected={openPath}
            link={(entry) =>
              tenantPath(tenant, `build/${uuid}/log/${entry.path.split('/').map(encodeURIComponent).join('/')}`)
            }
            raw={(entry) => entryUrl(logUrl, entry, manifest.value.indexLinks)}
          />
          {openPath !== null && <Viewer manifest={manifest.value} path={openPath} logUrl={logUrl} />}
        </>
      )}
    </section>
  );
}

interface TreeProps {
  entries: readonly LogEntry[];
  open: ReadonlySet<string>;
  toggle(path: string): void;
  selected: string | null;
  link(entry: LogEntry): string;
  raw(entry: LogEntry): string;
}

function Tree({ entries, ...props }: TreeProps) {
  if (entries.length === 0) {
    return <p className="muted">Empty folder.</p>;
  }
  return (
    <ul className="log-tree">
      {entries.map((entry) => (
        <li key={entry.name}>
          <Entry entry={entry} {...props} />
        </li>
      ))}
    </ul>
  );
}

function Entry({ entry, ...props }: { entry: LogEntry } & Omit<TreeProps, 'entries'>) {
  if (entry.children !== undefined) {
    const expanded = props.open.has(entry.path);
    return (
      <>
        <button type="button" className="log-folder" aria-expanded={expanded} onClick={() => props.toggle(entry.path)}>
          <span aria-hidden="true">{expanded ? '▾' : '▸'}</span> {entry.name}/
        </button>
        {expanded && <Tree entries={entry.children} {...props} />}
      </>
    );
  }
  const current = props.selected === entry.path;
  return (
    <span className="log-file">
      {viewable(entry) ? (
        <Link href={props.link(entry)} aria-current={current ? 'page' : undefined}>
          {entry.name}
        </Link>
      ) : (
        <a href={props.raw(entry)}>{entry.name}</a>
      )}
      <span className="muted small"> {formatSize(entry.size)}</span>
      {viewable(entry) && (
        <>
          {' '}
          <a className="small" href={props.raw(entry)} aria-label={`${entry.name} raw`}>
            raw
          </a>
        </>
      )}
    </span>
  );
}

function Viewer({ manifest, path, logUrl }: { manifest: LogManifest; path: string; logUrl: string }) {
  const entry = findEntry(manifest.tree, path);
  const url = entry !== undefined && viewable(entry) ? entryUrl(logUrl, entry, manifest.indexLinks) : null;
  const text = useFetched(url, readText);
  if (entry === undefined) {
    return <ErrorBox error={`The log folder has no ${path}.`} />;
  }
  if (entry.children !== undefined) {
    return null; // a folder: the tree shows it open
  }
  if (url === null) {
    return (
      <p>
        {path} is not shown here (type {entry.mimetype}
        {entry.encoding ? `, ${entry.encoding}` : ''}, {formatSize(entry.size)}):{' '}
        <a href={entryUrl(logUrl, entry, manifest.indexLinks)}>open it raw</a>.
      </p>
    );
  }
  return (
    <section className="log-viewer" aria-labelledby="log-viewer-title">
      <h3 id="log-viewer-title">
        {path} <a href={url}>raw</a>
      </h3>
      {text === undefined && <Loading what={path} />}
      {text !== undefined && 'error' in text && <ErrorBox title={`${path} could not be read`} error={text.error} />}
      {text !== undefined && 'value' in text && (
        <pre className="log-text" tabIndex={0}>
          {text.value}
        </pre>
      )}
    </section>
  );
}
