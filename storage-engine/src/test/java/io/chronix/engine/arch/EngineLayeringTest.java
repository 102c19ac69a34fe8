package io.chronix.engine.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/** The engine is a library anyone can embed: no Spring, and no other Chronix module. */
class EngineLayeringTest {

    private final JavaClasses engine = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.chronix.engine");

    @Test
    void engineClassesWereImported() {
        // guards the rules below: an empty import would make them pass vacuously
        assertThat(engine.size()).isGreaterThan(3);
    }

    @Test
    void engineDependsOnNoSpring() {
        noClasses().should().dependOnClassesThat().resideInAPackage("org.springframework..").check(engine);
    }

    @Test
    void engineDependsOnNoOtherChronixModule() {
        noClasses().should().dependOnClassesThat()
                .resideInAnyPackage("io.chronix.api..", "io.chronix.tenancy..", "io.chronix.archive..", "io.chronix.bench..", "io.chronix.it..")
                .check(engine);
    }

    @Test
    void enginePackagesAreFreeOfCycles() {
        slices().matching("io.chronix.engine.(*)..").should().beFreeOfCycles().check(engine);
    }
}
