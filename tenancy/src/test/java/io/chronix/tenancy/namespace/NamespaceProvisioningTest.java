package io.chronix.tenancy.namespace;

import io.chronix.tenancy.DatabaseTest;
import io.chronix.tenancy.tenant.NewTenant;
import io.chronix.tenancy.tenant.TenantService;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A namespace's id never comes round again, and its storage is made inside the creating transaction. */
class NamespaceProvisioningTest extends DatabaseTest {

    /** Records what it is asked; fails as a test tells it to. */
    static final class RecordingProvisioner implements NamespaceProvisioner {
        final List<Long> provisioned = new ArrayList<>();
        final List<Long> unprovisioned = new ArrayList<>();
        int takenDraws;
        boolean fail;
        JdbcClient jdbc;
        long rowsSeenAtProvision = -1;

        @Override
        public synchronized void provision(Namespace ns) throws IOException {
            provisioned.add(ns.id());
            rowsSeenAtProvision = jdbc.sql("SELECT count(*) FROM namespaces WHERE id = ?").param(ns.id()).query(Long.class).single();
            if (takenDraws > 0) {
                takenDraws--;
                throw new FileAlreadyExistsException("namespaces/" + ns.id());
            }
            if (fail) {
                throw new IOException("disk full");
            }
        }

        @Override
        public synchronized void unprovision(Namespace ns) {
            unprovisioned.add(ns.id());
        }
    }

    @TestConfiguration
    static class Provisioning {
        @Bean
        RecordingProvisioner provisioner(JdbcClient jdbc) {
            RecordingProvisioner p = new RecordingProvisioner();
            p.jdbc = jdbc;
            return p;
        }
    }

    @Autowired NamespaceService namespaces;
    @Autowired TenantService tenants;
    @Autowired RecordingProvisioner provisioner;
    @Autowired JdbcClient jdbc;
    @Autowired TransactionTemplate transactions;

    UUID tenant;

    @BeforeEach
    void tenant() {
        tenant = tenants.create(new NewTenant("p" + UUID.randomUUID().toString().substring(0, 8), null, null, null)).tenant().id();
        synchronized (provisioner) {
            provisioner.provisioned.clear();
            provisioner.unprovisioned.clear();
            provisioner.takenDraws = 0;
            provisioner.fail = false;
        }
    }

    @Test
    void idsAreDrawnAtRandomAboveEverySequenceIdOfEarlierReleases() {
        Namespace x = namespaces.create(tenant, "x", null, null);
        Namespace y = namespaces.create(tenant, "y", null, null);
        assertThat(x.id()).isGreaterThanOrEqualTo(NamespaceService.FIRST_RANDOM_ID);
        assertThat(y.id()).isGreaterThanOrEqualTo(NamespaceService.FIRST_RANDOM_ID).isNotEqualTo(x.id());
        assertThat(y.id() - x.id()).as("not a sequence").isNotEqualTo(1);
    }

    @Test
    void storageIsMadeInsideTheTransactionThatInsertsTheRow() {
        Namespace ns = namespaces.create(tenant, "inside", null, null);
        assertThat(provisioner.provisioned).containsExactly(ns.id());
        assertThat(provisioner.rowsSeenAtProvision).as("the row is inserted, not yet committed, when storage is made").isEqualTo(1);
        assertThat(provisioner.unprovisioned).isEmpty();
    }

    @Test
    void anIdWhoseStorageExistsWithoutARowIsNeverReusedAndAnotherIsDrawn() {
        provisioner.takenDraws = 2;
        Namespace ns = namespaces.create(tenant, "orphaned", null, null);
        assertThat(provisioner.provisioned).hasSize(3).endsWith(ns.id());
        for (long taken : provisioner.provisioned.subList(0, 2)) {
            assertThat(jdbc.sql("SELECT count(*) FROM namespaces WHERE id = ?").param(taken).query(Long.class).single()).isZero();
        }
        assertThat(namespaces.find(tenant, "orphaned")).contains(ns);
    }

    @Test
    void aNamespaceWhoseStorageCannotBeMadeIsNotCreated() {
        provisioner.fail = true;
        assertThatThrownBy(() -> namespaces.create(tenant, "nostorage", null, null)).hasMessageContaining("cannot make the new namespace's storage");
        assertThat(namespaces.find(tenant, "nostorage")).isEmpty();
        assertThat(provisioner.unprovisioned).as("undone when the transaction rolls back").containsExactlyElementsOf(provisioner.provisioned);
    }

    @Test
    void storageOfACreationThatDoesNotCommitIsUndone() {
        long id = transactions.execute(status -> {
            Namespace ns = namespaces.create(tenant, "rolledback", null, null);
            status.setRollbackOnly();
            return ns.id();
        });
        assertThat(provisioner.unprovisioned).containsExactly(id);
        assertThat(namespaces.find(tenant, "rolledback")).isEmpty();
    }

    @Test
    void everyRowIsListedWithItsTenantAndWhetherItIsLive() {
        Namespace live = namespaces.create(tenant, "live", null, null);
        Namespace gone = namespaces.create(tenant, "gone", null, null);
        namespaces.delete(tenant, "gone");
        var rows = namespaces.allRows();
        assertThat(rows.get(live.id())).isEqualTo(new NamespaceService.RowOwner(tenant, true));
        assertThat(rows.get(gone.id())).isEqualTo(new NamespaceService.RowOwner(tenant, false));
    }
}
