package io.chronix.api.namespace;

import io.chronix.api.config.DataDirectory;
import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.identity.IdentityFormat;
import io.chronix.engine.identity.IdentityReader;
import io.chronix.engine.io.NioFileIO;
import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.namespace.NamespaceService.RowOwner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A namespace directory is served only to the namespace and tenant that made it. */
class NamespaceDirectoriesTest {

    static final UUID TENANT_A = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    static final UUID TENANT_B = UUID.fromString("00000000-0000-0000-0000-00000000000b");
    static final long RANDOM_ID = NamespaceLocations.FIRST_RANDOM_ID + 12345;

    @TempDir Path tmp;
    DataDirectory data;
    NamespaceLocations locations;

    @BeforeEach
    void open() {
        data = DataDirectory.open(tmp.resolve("data"));
        locations = new NamespaceLocations(data);
    }

    @AfterEach
    void close() {
        data.close();
    }

    static Namespace ns(long id, UUID tenant) {
        return new Namespace(id, tenant, "n" + id, Duration.ofDays(1), null, "{}", Instant.parse("2026-12-07T00:00:00Z"));
    }

    private Path dir(long id) {
        return data.namespaces().resolve(Long.toString(id));
    }

    private void plantData(long id) throws IOException {
        Files.writeString(dir(id).resolve("secret-of-the-owner"), "tenant A's point");
    }

    private List<Path> quarantined() throws IOException {
        if (!Files.isDirectory(locations.quarantineDirectory())) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(locations.quarantineDirectory())) {
            return s.toList();
        }
    }

    @Test
    void aProvisionedDirectoryCarriesItsIdentityAndIsServedToItsNamespace() throws IOException {
        Namespace a = ns(RANDOM_ID, TENANT_A);
        locations.provision(a);
        assertThat(IdentityReader.read(NioFileIO.INSTANCE, dir(RANDOM_ID))).contains(NamespaceLocations.identityOf(a));
        assertThat(locations.openable(a)).isEqualTo(dir(RANDOM_ID));
        assertThat(locations.quarantined()).isZero();
        assertThat(locations.hasEngineData(NamespaceLocations.engineId(a))).as("no engine has opened it yet").isFalse();
    }

    @Test
    void anExistingDirectoryIsNeverProvisionedAgain() throws IOException {
        locations.provision(ns(RANDOM_ID, TENANT_A));
        assertThatThrownBy(() -> locations.provision(ns(RANDOM_ID, TENANT_B))).isInstanceOf(FileAlreadyExistsException.class);
    }

    @Test
    void anotherTenantsDirectoryUnderTheSameIdIsQuarantinedAndNeverServed() throws IOException {
        locations.provision(ns(RANDOM_ID, TENANT_A));
        plantData(RANDOM_ID);
        Namespace b = ns(RANDOM_ID, TENANT_B); // the id came round again after a lost row

        Path served = locations.openable(b);

        assertThat(served).isEqualTo(dir(RANDOM_ID));
        assertThat(Files.exists(served.resolve("secret-of-the-owner"))).as("A's data is not in what B gets").isFalse();
        assertThat(IdentityReader.read(NioFileIO.INSTANCE, served)).contains(NamespaceLocations.identityOf(b));
        assertThat(locations.quarantined()).isEqualTo(1);
        List<Path> q = quarantined();
        assertThat(q).hasSize(1);
        assertThat(Files.readString(q.getFirst().resolve("secret-of-the-owner"))).isEqualTo("tenant A's point");
    }

    @Test
    void aRandomIdDirectoryWithoutIdentityIsNotAdopted() throws IOException {
        Files.createDirectories(dir(RANDOM_ID));
        plantData(RANDOM_ID);
        Path served = locations.openable(ns(RANDOM_ID, TENANT_B));
        assertThat(Files.exists(served.resolve("secret-of-the-owner"))).isFalse();
        assertThat(locations.quarantined()).isEqualTo(1);
    }

    @Test
    void aDirectoryFromBeforeIdentitiesIsAdoptedByItsRowOnce() throws IOException {
        Files.createDirectories(dir(7));
        plantData(7);
        Namespace legacy = ns(7, TENANT_A);
        assertThat(locations.openable(legacy)).isEqualTo(dir(7));
        assertThat(Files.exists(dir(7).resolve("secret-of-the-owner"))).isTrue();
        assertThat(IdentityReader.read(NioFileIO.INSTANCE, dir(7))).contains(NamespaceLocations.identityOf(legacy));
        assertThat(locations.quarantined()).isZero();
        // adopted once: from now on it is tenant A's, and tenant B is refused it
        locations.openable(ns(7, TENANT_B));
        assertThat(locations.quarantined()).isEqualTo(1);
    }

    @Test
    void aMissingDirectoryIsMadeWithTheRowsIdentity() throws IOException {
        Namespace a = ns(RANDOM_ID, TENANT_A);
        locations.openable(a);
        assertThat(IdentityReader.read(NioFileIO.INSTANCE, dir(RANDOM_ID))).contains(NamespaceLocations.identityOf(a));
    }

    @Test
    void aDamagedIdentityIsNotServedAndNotMoved() throws IOException {
        locations.provision(ns(RANDOM_ID, TENANT_A));
        Path file = dir(RANDOM_ID).resolve(IdentityFormat.FILE_NAME);
        byte[] bytes = Files.readAllBytes(file);
        bytes[10] ^= 1;
        Files.write(file, bytes);
        assertThatThrownBy(() -> locations.openable(ns(RANDOM_ID, TENANT_A))).isInstanceOf(CorruptFileException.class);
        assertThat(Files.exists(file)).isTrue();
        assertThat(locations.quarantined()).isZero();
    }

    @Test
    void unprovisionRemovesOnlyWhatItMade() throws IOException {
        Namespace a = ns(RANDOM_ID, TENANT_A);
        locations.provision(a);
        locations.unprovision(ns(RANDOM_ID, TENANT_B));
        assertThat(Files.exists(dir(RANDOM_ID))).as("another owner's directory stays").isTrue();
        locations.unprovision(a);
        assertThat(Files.exists(dir(RANDOM_ID))).isFalse();
    }

    @Test
    void theStartUpAuditQuarantinesOrphansAndForeignIdentitiesAndLeavesTheRest() throws IOException {
        long orphan = RANDOM_ID + 1;
        long foreign = RANDOM_ID + 2;
        long mine = RANDOM_ID + 3;
        long deleted = RANDOM_ID + 4;
        long legacy = 5;
        locations.provision(ns(orphan, TENANT_A));
        locations.provision(ns(foreign, TENANT_A));
        locations.provision(ns(mine, TENANT_A));
        locations.provision(ns(deleted, TENANT_A));
        Files.createDirectories(dir(legacy));
        Files.createDirectories(data.namespaces().resolve("not-a-namespace"));
        Map<Long, RowOwner> rows = Map.of(
                foreign, new RowOwner(TENANT_B, true),
                mine, new RowOwner(TENANT_A, true),
                deleted, new RowOwner(TENANT_A, false),
                legacy, new RowOwner(TENANT_A, true));

        NamespaceDirectoryAudit.Report r = new NamespaceDirectoryAudit(locations, null, data).audit(() -> rows);

        assertThat(r).isEqualTo(new NamespaceDirectoryAudit.Report(6, 2, 0, 1));
        assertThat(Files.exists(dir(orphan))).isFalse();
        assertThat(Files.exists(dir(foreign))).isFalse();
        assertThat(Files.exists(dir(mine))).isTrue();
        assertThat(Files.exists(dir(deleted))).as("left to the reaper").isTrue();
        assertThat(Files.exists(dir(legacy))).as("adopted at its open").isTrue();
        assertThat(quarantined()).hasSize(2);
        assertThat(locations.quarantined()).isEqualTo(2);
    }
}
