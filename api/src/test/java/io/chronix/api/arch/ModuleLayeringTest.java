package io.chronix.api.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The module layering of DESIGN.md §1, checked over every Chronix class on the service's class
 * path: api → tenancy, storage-engine, cold-archive; cold-archive → storage-engine; the engine
 * depends on nothing of ours and on no Spring; tenancy knows nothing of the engine.
 */
class ModuleLayeringTest {

    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TEST_FIXTURES)
            .importPackages("io.chronix");

    @Test
    void everyModuleWasImported() {
        // without this, an empty import would let every rule below pass
        assertThat(classes.stream().map(c -> c.getPackageName().split("\\.")[2]).distinct())
                .contains("engine", "archive", "tenancy", "api");
    }

    @Test
    void engineUsesNoSpringAndNoOtherModule() {
        noClasses().that().resideInAPackage("io.chronix.engine..")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework..", "io.chronix.api..",
                        "io.chronix.tenancy..", "io.chronix.archive..")
                .check(classes);
    }

    @Test
    void tenancyKnowsNothingOfTheEngineArchiveOrService() {
        noClasses().that().resideInAPackage("io.chronix.tenancy..")
                .should().dependOnClassesThat().resideInAnyPackage("io.chronix.engine..", "io.chronix.archive..", "io.chronix.api..")
                .check(classes);
    }

    @Test
    void archiveDependsOnlyOnTheEngine() {
        noClasses().that().resideInAPackage("io.chronix.archive..")
                .should().dependOnClassesThat().resideInAnyPackage("io.chronix.api..", "io.chronix.tenancy..", "org.springframework..")
                .check(classes);
    }
}
