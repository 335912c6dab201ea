/**
 * The menu search dialog: a few characters of a menu's name, its pinyin initials (yhgl → 用户管理)
 * or its pinyin (yonghu) find it; ↑ ↓ choose, Enter opens.
 */
import { Empty, Input, Modal } from 'antd';
import { pinyin } from 'pinyin-pro';
import { useMemo, useState } from 'react';

import type { SearchEntry } from './search-entry';

interface Indexed extends SearchEntry {
  initials: string;
  spelled: string;
}

const compact = (text: string) => text.toLowerCase().replace(/\s+/g, '');

const spell = (name: string, pattern: 'first' | 'pinyin') => compact(pinyin(name, { pattern, toneType: 'none', type: 'array', nonZh: 'consecutive' }).join(''));

function matches(entry: Indexed, query: string): boolean {
  const wanted = query.trim().toLowerCase();
  if (!wanted) return true;
  return entry.name.toLowerCase().includes(wanted) || entry.initials.includes(compact(wanted)) || entry.spelled.includes(compact(wanted));
}

interface SearchDialogProps {
  open: boolean;
  entries: SearchEntry[];
  onOpen: (entry: SearchEntry) => void;
  onClose: () => void;
}

export default function SearchDialog({ open, entries, onOpen, onClose }: SearchDialogProps) {
  return (
    <Modal title="搜索菜单" open={open} footer={null} onCancel={onClose} destroyOnHidden>
      <SearchPanel entries={entries} onOpen={onOpen} />
    </Modal>
  );
}

function SearchPanel({ entries, onOpen }: Pick<SearchDialogProps, 'entries' | 'onOpen'>) {
  const [query, setQuery] = useState('');
  const [highlighted, setHighlighted] = useState(0);
  const indexed = useMemo(() => entries.map((entry): Indexed => ({ ...entry, initials: spell(entry.name, 'first'), spelled: spell(entry.name, 'pinyin') })), [entries]);
  const found = useMemo(() => indexed.filter((entry) => matches(entry, query)), [indexed, query]);
  const current = Math.min(highlighted, Math.max(found.length - 1, 0));

  return (
    <div className="menu-search">
      <Input
        autoFocus
        allowClear
        aria-label="菜单名称或拼音首字母"
        placeholder="输入菜单名称或拼音首字母，回车打开"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setHighlighted(0);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            const step = event.key === 'ArrowDown' ? 1 : -1;
            setHighlighted((current + step + found.length) % Math.max(found.length, 1));
          }
          if (event.key === 'Enter' && found[current]) {
            // Handled here: the dialog closes and focus returns to the search button, which must
            // not take this Enter as a press and open the dialog again.
            event.preventDefault();
            onOpen(found[current]);
          }
        }}
      />
      {found.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有匹配的菜单" />
      ) : (
        <ul className="menu-search-results" role="listbox" aria-label="匹配的菜单">
          {found.map((entry, index) => (
            <li
              key={entry.key}
              role="option"
              aria-selected={index === current}
              className={index === current ? 'menu-search-result menu-search-result-active' : 'menu-search-result'}
              onMouseEnter={() => setHighlighted(index)}
              onClick={() => onOpen(entry)}
            >
              <span>{entry.name}</span>
              {entry.trail && <span className="menu-search-trail">{entry.trail}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
