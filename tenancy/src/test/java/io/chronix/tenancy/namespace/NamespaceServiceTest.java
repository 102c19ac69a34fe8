package io.chronix.tenancy.namespace;

import io.chronix.tenancy.DatabaseTest;
import io.chronix.tenancy.InvalidInputException;
import io.chronix.tenancy.LimitExceededException;
import io.chronix.tenancy.NameTakenException;
import io.chronix.tenancy.NotFoundException;
import io.chronix.tenancy.Page;
import io.chronix.tenancy.TenancyDirectory;
import io.chronix.tenancy.tenant.NewTenant;
import io.chronix.tenancy.tenant.TenantService;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;

import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NamespaceServiceTest extends DatabaseTest {

    @Autowired NamespaceService namespaces;
    @Autowired TenantService tenants;
    @Autowired PendingDeletions pending;
    @Autowired TenancyDirectory directory;

    UUID a;
    UUID b;

    @BeforeEach
    void twoTenants() {
        a = tenants.create(new NewTenant("a" + UUID.randomUUID().toString().substring(0, 8), null, null, null)).tenant().id();
        b = tenants.create(new NewTenant("b" + UUID.randomUUID().toString().substring(0, 8), null, null, null)).tenant().id();
    }

    @Test
    void createdNamespaceHasAPositiveIdAndTheTenantsMaxRetentionByDefault() {
        Namespace ns = namespaces.create(a, "metrics", null, null);
        assertThat(ns.id()).isPositive();
        assertThat(ns.retention()).isEqualTo(Duration.ofDays(400));
        assertThat(ns.coldAfter()).isNull();
        assertThat(ns.settingsJson()).isEqualTo("{}");
        assertThat(directory.namespace(a, "metrics")).contains(ns);
    }

    @Test
    void allAfterPagesThroughLiveNamespacesOfEveryTenantById() {
        Namespace x = namespaces.create(a, "x", null, null);
        Namespace y = namespaces.create(b, "y", null, null);
        Namespace z = namespaces.create(a, "z", null, null);
        namespaces.delete(a, "z");
        java.util.List<Namespace> all = namespaces.allAfter(0, 1000);
        assertThat(all).extracting(Namespace::id).isSorted().contains(x.id(), y.id()).doesNotContain(z.id());
        Namespace first = all.getFirst();
        assertThat(namespaces.allAfter(first.id() - 1, 1)).containsExactly(first);
        assertThat(namespaces.allAfter(first.id(), 1000)).extracting(Namespace::id).doesNotContain(first.id()).hasSize(all.size() - 1);
    }

    @Test
    void namespaceOfAnotherTenantIsNotFound() {
        namespaces.create(a, "metrics", null, null);
        assertThat(namespaces.find(b, "metrics")).isEmpty();
        assertThat(namespaces.delete(b, "metrics")).isFalse();
        assertThatThrownBy(() -> namespaces.update(b, "metrics", Duration.ofDays(1), null)).isInstanceOf(NotFoundException.class);
        assertThat(namespaces.find(a, "metrics")).isPresent();
    }

    @Test
    void theSameNameInTwoTenantsIsTwoNamespaces() {
        Namespace x = namespaces.create(a, "shared", null, null);
        Namespace y = namespaces.create(b, "shared", null, null);
        assertThat(x.id()).isNotEqualTo(y.id());
    }

    @Test
    void duplicateNameIsTaken() {
        namespaces.create(a, "dup", null, null);
        assertThatThrownBy(() -> namespaces.create(a, "dup", null, null)).isInstanceOf(NameTakenException.class);
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"", "../x", "%2e%2e", "a/b", "a\u0000b", "Metrics", "-lead", "_lead", "caf\u00e9", "\u0430dmin", "a b",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})
    void hostileNamesAreRefusedAndNeverFound(String name) {
        assertThatThrownBy(() -> namespaces.create(a, name, null, null))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.errors().getFirst().field()).isEqualTo("name"));
        assertThat(namespaces.find(a, name)).isEmpty();
        assertThat(namespaces.delete(a, name)).isFalse();
    }

    @Test
    void maxNamespacesAndMaxRetentionAreEnforced() {
        assertThatThrownBy(() -> namespaces.create(a, "long", Duration.ofDays(401), null))
                .isInstanceOfSatisfying(LimitExceededException.class, e -> {
                    assertThat(e.limit()).isEqualTo("maxRetention");
                    assertThat(e.value()).isEqualTo("P400D");
                });
        namespaces.create(a, "n1", null, null);
        namespaces.create(a, "n2", null, null);
        namespaces.create(a, "n3", null, null);
        assertThatThrownBy(() -> namespaces.create(a, "n4", null, null))
                .isInstanceOfSatisfying(LimitExceededException.class, e -> assertThat(e.limit()).isEqualTo("maxNamespaces"));
        assertThat(namespaces.list(a, Page.FIRST)).extracting(Namespace::name).containsExactly("n1", "n2", "n3");
        assertThat(namespaces.list(a, new Page(1, 1))).extracting(Namespace::name).containsExactly("n2");
    }

    @Test
    void concurrentCreationNeverExceedsMaxNamespaces() throws Exception {
        java.util.List<java.util.concurrent.Future<Boolean>> results = new java.util.ArrayList<>();
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(8)) {
            for (int i = 0; i < 8; i++) {
                String name = "race" + i;
                results.add(pool.submit(() -> {
                    try {
                        namespaces.create(a, name, null, null);
                        return true;
                    } catch (LimitExceededException e) {
                        return false;
                    }
                }));
            }
        }
        long created = 0;
        for (var f : results) {
            created += f.get() ? 1 : 0;
        }
        assertThat(created).isEqualTo(3);
        assertThat(namespaces.list(a, Page.FIRST)).hasSize(3);
    }

    @Test
    void coldAfterMustNotExceedRetention() {
        assertThatThrownBy(() -> namespaces.create(a, "c", Duration.ofDays(1), Duration.ofDays(2)))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.errors().getFirst().field()).isEqualTo("coldAfter"));
        namespaces.create(a, "c", Duration.ofDays(10), null);
        Namespace changed = namespaces.update(a, "c", null, Duration.ofDays(2));
        assertThat(changed.coldAfter()).isEqualTo(Duration.ofDays(2));
        assertThat(changed.retention()).isEqualTo(Duration.ofDays(10));
    }

    @Test
    void deletedNamespaceIsGoneAtOnceQueuedAndItsIdIsNeverReused() {
        Namespace first = namespaces.create(a, "tmp", null, null);
        assertThat(namespaces.delete(a, "tmp")).isTrue();
        assertThat(namespaces.find(a, "tmp")).isEmpty();
        assertThat(pending.due(1000)).extracting(PendingDeletion::namespaceId).contains(first.id());
        Namespace second = namespaces.create(a, "tmp", null, null);
        assertThat(second.id()).isNotEqualTo(first.id());

        pending.failed(first.id(), "disk on fire");
        assertThat(pending.due(1000)).extracting(PendingDeletion::namespaceId).doesNotContain(first.id());
        pending.completed(first.id());
        assertThat(pending.due(1000)).extracting(PendingDeletion::namespaceId).doesNotContain(first.id());
    }
}
