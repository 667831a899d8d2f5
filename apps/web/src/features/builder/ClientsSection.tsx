import { useState } from 'react';
import { Button, Group, NativeSelect, Title } from '@mantine/core';
import { useStore } from '../../state/store.ts';
import { useBuilderWorkspace } from './useBuilderWorkspace.ts';
import { ConfirmModal, NewItemModal } from '../../components/modals.tsx';

/** Spec section 2, Clients section: client dropdown with the count, New Client, Delete Client. */
export function ClientsSection() {
  const workspace = useBuilderWorkspace();
  const { clients, client, isLoadingClients, isLoadingClient } = useStore(workspace.state);
  const [isNewOpen, setIsNewOpen] = useState(false);
  const [isDeleteOpen, setIsDeleteOpen] = useState(false);

  return (
    <section className="builder-section" aria-labelledby="clients-heading">
      <Title order={2} size="h4" id="clients-heading" className="builder-section__title">
        Clients
      </Title>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <NativeSelect
          className="builder-select"
          label={`Client (${clients.length})`}
          value={client ?? ''}
          disabled={isLoadingClients}
          data={[
            { value: '', label: clients.length === 0 ? 'No clients yet' : 'Select a client' },
            ...clients.map((name) => ({ value: name, label: name })),
          ]}
          onChange={(event) => void workspace.selectClient(event.currentTarget.value || null)}
        />
        <Button onClick={() => setIsNewOpen(true)}>New Client</Button>
        {client !== null ? (
          <Button
            variant="light"
            color="red"
            onClick={() => setIsDeleteOpen(true)}
            disabled={isLoadingClient}
          >
            Delete Client
          </Button>
        ) : null}
      </Group>
      <NewItemModal
        opened={isNewOpen}
        title="New Client"
        label="Client name"
        onClose={() => setIsNewOpen(false)}
        onSubmit={async (name) => {
          if ((await workspace.createClient(name)) !== null) setIsNewOpen(false);
        }}
      />
      <ConfirmModal
        opened={isDeleteOpen}
        title="Delete Client"
        confirmLabel="Delete Client"
        onClose={() => setIsDeleteOpen(false)}
        onConfirm={async () => {
          if (client !== null && (await workspace.deleteClient(client))) setIsDeleteOpen(false);
        }}
      >
        Delete the client “{client}” with all its feeds and templates? This cannot be undone.
      </ConfirmModal>
    </section>
  );
}
