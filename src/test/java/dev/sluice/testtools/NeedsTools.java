package dev.sluice.testtools;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The outside programs a test class runs. {@link ToolCheck} looks for them before the class's
 * first test, and for every selected class before a run of several starts, failing with one
 * message that names each missing tool and how to install it. Subclasses inherit it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Inherited
@ExtendWith(ToolCheck.class)
public @interface NeedsTools {
  Tool[] value();
}
