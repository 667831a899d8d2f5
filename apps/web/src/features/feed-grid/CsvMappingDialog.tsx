import { useState } from 'react';
import {
  Button,
  Checkbox,
  Group,
  Modal,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { FEED_COLUMNS } from '@adloom/engine';
import type { CsvColumnMapping, CsvHead } from './csvImport.ts';
import { FEED_COLUMN_LABELS } from './feedColumns.ts';
import { chooseColumnsByPosition, describeFileColumn, previewMappedRows } from './csvMapping.ts';
import './CsvMappingDialog.css';

/**
 * Asked when a CSV file's first row names no feed column: which file column fills Root,
 * Modifier, Var 1-3 and Final URL (a select each), whether the first row holds column names,
 * and a preview of the first rows as they would import.
 */
export function CsvMappingDialog({
  fileName,
  head,
  onImport,
  onCancel,
}: {
  fileName: string;
  head: CsvHead;
  onImport: (mapping: CsvColumnMapping) => void;
  onCancel: () => void;
}) {
  const [hasHeader, setHasHeader] = useState(true);
  const [choices, setChoices] = useState(() => chooseColumnsByPosition(head.columnCount));
  const mapping: CsvColumnMapping = {
    hasHeader,
    sources: choices.map((choice) => (choice === null ? [] : [choice])),
  };
  const preview = previewMappedRows(head, mapping);
  const fileColumns = Array.from({ length: head.columnCount }, (_, i) => ({
    value: String(i),
    label: describeFileColumn(head, i, hasHeader),
  }));

  return (
    <Modal opened onClose={onCancel} title="Choose the columns to import" size="xl" centered>
      <Stack gap="md">
        <Text size="sm">
          The first row of {fileName} names no feed column. Choose the file column that fills each
          feed column; Import adds the rows under the feed&apos;s own.
        </Text>
        <Checkbox
          label="The first row holds column names (not imported)"
          checked={hasHeader}
          onChange={(event) => setHasHeader(event.currentTarget.checked)}
        />
        <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="sm">
          {FEED_COLUMNS.map((column, c) => (
            <NativeSelect
              key={column}
              label={FEED_COLUMN_LABELS[column]}
              value={choices[c] === null ? '' : String(choices[c])}
              data={[{ value: '', label: '(none)' }, ...fileColumns]}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setChoices((current) =>
                  current.map((choice, i) =>
                    i === c ? (value === '' ? null : Number(value)) : choice,
                  ),
                );
              }}
            />
          ))}
        </SimpleGrid>
        <div
          className="csv-mapping__preview"
          role="region"
          aria-label="Preview"
          // Scrolls sideways on a narrow screen: reachable by keyboard.
          tabIndex={0}
        >
          <Table withTableBorder striped aria-label="Preview of the first rows">
            <Table.Thead>
              <Table.Tr>
                {FEED_COLUMNS.map((column) => (
                  <Table.Th key={column}>{FEED_COLUMN_LABELS[column]}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.map((row, r) => (
                <Table.Tr key={r}>
                  {row.map((value, c) => (
                    <Table.Td key={c}>{value}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={() => onImport(mapping)} disabled={choices.every((c) => c === null)}>
            Import
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
